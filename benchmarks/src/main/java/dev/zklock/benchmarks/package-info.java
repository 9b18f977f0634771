/**
 * Benchmarks of zklock against raw Curator and its peers, and the run that reports them.
 */
@NullMarked
package dev.zklock.benchmarks;

import org.jspecify.annotations.NullMarked;
