/**
 * An application whose classes are woven at compile time with the zklock aspects: locked and
 * leader-only methods called from inside their own beans, and a private locked method.
 */
@NullMarked
package dev.zklock.woven;

import org.jspecify.annotations.NullMarked;
