package dev.zklock.woven;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A counter that loses updates unless its callers exclude each other: it reads, pauses, and
 * writes back. It also records the most callers it ever had inside at once.
 */
public final class UnsafeCounter {

	private int value;

	private final AtomicInteger inside = new AtomicInteger();

	private final AtomicInteger mostInside = new AtomicInteger();

	void increment() {
		this.mostInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
		int read = this.value;
		LockSupport.parkNanos(200_000);
		this.value = read + 1;
		this.inside.decrementAndGet();
	}

	public synchronized int value() {
		return this.value;
	}

	public int mostInside() {
		return this.mostInside.get();
	}

}
