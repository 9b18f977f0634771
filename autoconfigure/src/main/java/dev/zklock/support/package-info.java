/**
 * Interception support shared by the lock and leadership advice. Internal: not part of the API.
 */
@NullMarked
package dev.zklock.support;

import org.jspecify.annotations.NullMarked;
