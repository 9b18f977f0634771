/**
 * The {@code @ZkLocked} advice: the advisor and interceptor, the lock specs resolved once per
 * method, their key expressions, and the startup check of annotated beans.
 */
@NullMarked
package dev.zklock.lock.aop;

import org.jspecify.annotations.NullMarked;
