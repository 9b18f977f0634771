/**
 * The leader-only component application of the system tests: a Spring Boot application using
 * the zklock starter whose {@code @ZkLeaderComponent} beans, one per group, log every interval
 * in which they run, and whose context a test stops and starts over a control port.
 */
@NullMarked
package dev.zklock.systemtest.components;

import org.jspecify.annotations.NullMarked;
