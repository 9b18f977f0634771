/**
 * Micrometer support: metrics of locks and leadership, and observations that show lock waits
 * and locked calls in traces.
 */
@NullMarked
package dev.zklock.micrometer;

import org.jspecify.annotations.NullMarked;
