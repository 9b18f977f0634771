/**
 * Auto-configuration of ShedLock's lock provider on zklock, when ShedLock is on the classpath.
 */
@NullMarked
package dev.zklock.autoconfigure.shedlock;

import org.jspecify.annotations.NullMarked;
