/**
 * Stock: the database table, the locked operations on it and their HTTP endpoints.
 */
@NullMarked
package dev.zklock.sample.stock;

import org.jspecify.annotations.NullMarked;
