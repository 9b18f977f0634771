/**
 * The workloads of the benchmark set, one class each: JMH benchmarks for the timed ones, plain
 * measurements for request counts and leader failover.
 */
@NullMarked
package dev.zklock.benchmarks.workload;

import org.jspecify.annotations.NullMarked;
