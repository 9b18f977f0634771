/**
 * The workload application of the system tests: a Spring Boot application using the zklock
 * starter, run as several processes, that increments and reads fenced registers under
 * {@code @ZkLocked} locks, ticks as a {@code @ZkLeader}, and logs every operation to its
 * history file.
 */
@NullMarked
package dev.zklock.systemtest.app;

import org.jspecify.annotations.NullMarked;
