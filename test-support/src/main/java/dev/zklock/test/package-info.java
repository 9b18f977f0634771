/**
 * Real ZooKeeper servers for tests: {@link dev.zklock.test.EmbeddedZooKeeper} for an in-process
 * server per test class, {@link dev.zklock.test.ZooKeeperEnsemble} for servers in separate
 * processes, and {@link dev.zklock.test.JavaProcess} for applications in separate JVMs.
 */
@NullMarked
package dev.zklock.test;

import org.jspecify.annotations.NullMarked;
