/**
 * The programmatic API of zklock: the lock template and context, the leadership API, and the
 * exceptions callers see.
 */
@NullMarked
package dev.zklock;

import org.jspecify.annotations.NullMarked;
