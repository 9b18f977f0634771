/**
 * The system tests' application and what it records and checks; the fault injection between
 * its processes and ZooKeeper is zklock-test's {@code dev.zklock.test.ChaosProxy}.
 */
@NullMarked
package dev.zklock.systemtest;

import org.jspecify.annotations.NullMarked;
