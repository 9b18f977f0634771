/**
 * Auto-configuration of the ZooKeeper client, locks and leadership.
 */
@NullMarked
package dev.zklock.autoconfigure;

import org.jspecify.annotations.NullMarked;
