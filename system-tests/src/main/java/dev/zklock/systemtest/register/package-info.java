/**
 * The resource the locks of a system test protect: {@link dev.zklock.systemtest.register.FencedRegister},
 * a counter served over HTTP on loopback that rejects any access carrying a fencing token older
 * than one it has served, and {@link dev.zklock.systemtest.register.FencedRegisterClient} for the
 * application processes.
 */
@NullMarked
package dev.zklock.systemtest.register;

import org.jspecify.annotations.NullMarked;
