/**
 * The lock libraries under test, each used the way its documentation shows, behind one small
 * interface per kind of lock.
 */
@NullMarked
package dev.zklock.benchmarks.library;

import org.jspecify.annotations.NullMarked;
