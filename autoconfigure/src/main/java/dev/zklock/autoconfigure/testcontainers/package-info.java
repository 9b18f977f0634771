/**
 * Testcontainers service connections: {@code @ServiceConnection} on a ZooKeeper container
 * supplies zklock's connection details.
 */
@NullMarked
package dev.zklock.autoconfigure.testcontainers;

import org.jspecify.annotations.NullMarked;
