/**
 * The {@code @ZkLocked} advice, shared by the proxy advisor and the woven aspect of
 * zklock-aspects, the lock specs resolved once per method, their key expressions, and the
 * startup check of annotated beans.
 */
@NullMarked
package dev.zklock.lock.aop;

import org.jspecify.annotations.NullMarked;
