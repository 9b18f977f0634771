/**
 * Docker Compose service connections: a {@code zookeeper} service in {@code compose.yaml}
 * supplies zklock's connection details.
 */
@NullMarked
package dev.zklock.autoconfigure.docker;

import org.jspecify.annotations.NullMarked;
