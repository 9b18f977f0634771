/**
 * Fault injection between the application processes of a system test and ZooKeeper:
 * {@link dev.zklock.systemtest.ChaosProxy} passes, blackholes or cuts their connections.
 */
@NullMarked
package dev.zklock.systemtest;

import org.jspecify.annotations.NullMarked;
