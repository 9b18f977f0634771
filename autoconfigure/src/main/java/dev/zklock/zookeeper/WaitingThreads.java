package dev.zklock.zookeeper;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import org.jspecify.annotations.Nullable;

/**
 * Whether the calling thread may wait for a reply inside ZooKeeper's client: its synchronous
 * requests wait in {@link Object#wait()} under the request's monitor, which pins a virtual thread
 * to its carrier on a JVM before 24 (JEP 491). Such a thread waits for a background request's
 * reply instead, as every thread did before.
 */
final class WaitingThreads {

	private static final @Nullable MethodHandle IS_VIRTUAL = (Runtime.version().feature() < 24) ? isVirtual() : null;

	private WaitingThreads() {
	}

	/**
	 * Return whether a wait inside ZooKeeper's client would pin the calling thread's carrier.
	 */
	static boolean pinsCarrier() {
		MethodHandle isVirtual = IS_VIRTUAL;
		if (isVirtual == null) {
			return false;
		}
		try {
			return (boolean) isVirtual.invokeExact(Thread.currentThread());
		}
		catch (Throwable ex) {
			return true;
		}
	}

	private static @Nullable MethodHandle isVirtual() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (ReflectiveOperationException ex) {
			// Before Java 21: no virtual threads.
			return null;
		}
	}

}
