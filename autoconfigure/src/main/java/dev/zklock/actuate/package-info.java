/**
 * Operations support: the ZooKeeper health indicator, and what operators see of locks and
 * leadership.
 */
@NullMarked
package dev.zklock.actuate;

import org.jspecify.annotations.NullMarked;
