/**
 * The figures of a benchmark run and the Markdown report made of them.
 */
@NullMarked
package dev.zklock.benchmarks.report;

import org.jspecify.annotations.NullMarked;
