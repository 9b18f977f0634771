/**
 * Real ZooKeeper servers for tests: {@link dev.zklock.test.EmbeddedZooKeeper} for an in-process
 * server per test class, {@link dev.zklock.test.ZooKeeperEnsemble} for servers in separate
 * processes, {@link dev.zklock.test.JavaProcess} for applications in separate JVMs, and
 * {@link dev.zklock.test.ChaosProxy} to cut a client off from its servers.
 */
@NullMarked
package dev.zklock.test;

import org.jspecify.annotations.NullMarked;
