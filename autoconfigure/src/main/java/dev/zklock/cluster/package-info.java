/**
 * The whole cluster as ZooKeeper shows it, from any instance: the queue of every lock key, the
 * participants of every election group, and the forced release of a lock node.
 */
@NullMarked
package dev.zklock.cluster;

import org.jspecify.annotations.NullMarked;
