/**
 * Curator's lock interfaces on zklock: {@link dev.zklock.curator.ZkInterProcessMutex} and
 * {@link dev.zklock.curator.ZkInterProcessReadWriteLock}, for code written against Curator's
 * {@code InterProcessMutex} and {@code InterProcessReadWriteLock}.
 */
@NullMarked
package dev.zklock.curator;

import org.jspecify.annotations.NullMarked;
