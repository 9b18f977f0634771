/**
 * The checker of a system test run: {@link dev.zklock.systemtest.check.Checker} verifies the
 * lock and leadership {@link dev.zklock.systemtest.check.Invariant invariants} on the merged
 * history and the register's counts, and returns a {@link dev.zklock.systemtest.check.CheckReport}.
 */
@NullMarked
package dev.zklock.systemtest.check;

import org.jspecify.annotations.NullMarked;
