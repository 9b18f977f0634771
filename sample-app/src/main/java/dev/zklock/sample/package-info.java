/**
 * The zklock sample application.
 */
@NullMarked
package dev.zklock.sample;

import org.jspecify.annotations.NullMarked;
