/**
 * Interception support shared by the lock and leadership advice, and what zklock reads of a
 * ZooKeeper server. Internal: not part of the API.
 */
@NullMarked
package dev.zklock.support;

import org.jspecify.annotations.NullMarked;
