/**
 * The history of a system test run: every {@link dev.zklock.systemtest.history.Operation} of every
 * application process, appended to one file per process by a
 * {@link dev.zklock.systemtest.history.HistoryWriter} and merged by the
 * {@link dev.zklock.systemtest.history.HistoryReader}.
 */
@NullMarked
package dev.zklock.systemtest.history;

import org.jspecify.annotations.NullMarked;
