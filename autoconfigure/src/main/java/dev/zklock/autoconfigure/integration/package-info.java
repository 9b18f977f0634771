/**
 * Auto-configuration of Spring Integration's lock registry on zklock, when Spring Integration is
 * on the classpath.
 */
@NullMarked
package dev.zklock.autoconfigure.integration;

import org.jspecify.annotations.NullMarked;
