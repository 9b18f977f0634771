/**
 * The {@code @SchedulerLock} application of the ShedLock migration test: a Spring Boot
 * application as a ShedLock user has it (its own {@code CuratorFramework}, ShedLock's ZooKeeper
 * provider as its {@code LockProvider}) and the same application moved to zklock (the zklock
 * starter instead of the provider, and no {@code LockProvider} bean of its own). Its job logs
 * every run to a history file.
 */
@NullMarked
package dev.zklock.systemtest.shedlock;

import org.jspecify.annotations.NullMarked;
