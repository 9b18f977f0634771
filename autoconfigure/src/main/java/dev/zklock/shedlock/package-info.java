/**
 * ShedLock's {@code LockProvider} on zklock: {@link dev.zklock.shedlock.ZkLockProvider}, for
 * {@code @SchedulerLock} jobs.
 */
@NullMarked
package dev.zklock.shedlock;

import org.jspecify.annotations.NullMarked;
