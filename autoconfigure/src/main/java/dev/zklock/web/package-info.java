/**
 * Web support: lock and leadership failures answered as HTTP problem details (RFC 9457).
 */
@NullMarked
package dev.zklock.web;

import org.jspecify.annotations.NullMarked;
