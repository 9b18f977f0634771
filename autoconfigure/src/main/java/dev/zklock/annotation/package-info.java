/**
 * Annotations that declare locks and leader-only methods.
 */
@NullMarked
package dev.zklock.annotation;

import org.jspecify.annotations.NullMarked;
