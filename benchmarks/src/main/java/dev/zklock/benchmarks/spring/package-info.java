/**
 * Spring Boot applications with zklock's auto-configuration, for the annotation rows of the
 * benchmarks: {@code @ZkLocked} and {@code @ZkLeader} as a user's application has them.
 */
@NullMarked
package dev.zklock.benchmarks.spring;

import org.jspecify.annotations.NullMarked;
