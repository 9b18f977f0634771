/**
 * The AspectJ mode ({@code zklock.advice-mode=aspectj}): aspects for {@code @ZkLocked} and
 * {@code @ZkLeader}, woven into the application at compile time or load time, and the
 * auto-configuration that hands each woven bean the advice of its own application context.
 */
@NullMarked
package dev.zklock.aspects;

import org.jspecify.annotations.NullMarked;
