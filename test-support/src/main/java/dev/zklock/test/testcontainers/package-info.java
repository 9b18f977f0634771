/**
 * A Testcontainers container for the official {@code zookeeper} image, at the ZooKeeper version
 * zklock brings, with a wait strategy on the server really serving.
 */
@NullMarked
package dev.zklock.test.testcontainers;

import org.jspecify.annotations.NullMarked;
