/**
 * The leader-only low-stock report and the view of the leader election.
 */
@NullMarked
package dev.zklock.sample.report;

import org.jspecify.annotations.NullMarked;
