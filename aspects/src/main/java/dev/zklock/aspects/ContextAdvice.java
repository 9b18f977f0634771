package dev.zklock.aspects;

import java.util.function.Supplier;

import dev.zklock.leader.LeaderAdvice;
import dev.zklock.lock.aop.LockAdvice;
import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.util.function.SingletonSupplier;

/**
 * The advice of one application context, as the aspects call it: the lock and leader advice of
 * a context in AspectJ mode, none for a context whose beans are advised by proxies (there the
 * woven code just runs, so that nothing is advised twice) or where zklock is off.
 */
final class ContextAdvice {

	private final AdviceMode mode;

	private final SingletonSupplier<@Nullable LockAdvice> lock;

	private final SingletonSupplier<@Nullable LeaderAdvice> leader;

	ContextAdvice(AdviceMode mode, Supplier<@Nullable LockAdvice> lock, Supplier<@Nullable LeaderAdvice> leader) {
		this.mode = mode;
		this.lock = SingletonSupplier.of(lock);
		this.leader = SingletonSupplier.of(leader);
	}

	boolean isWoven() {
		return this.mode == AdviceMode.ASPECTJ;
	}

	@Nullable LockAdvice lock() {
		return isWoven() ? this.lock.get() : null;
	}

	@Nullable LeaderAdvice leader() {
		return isWoven() ? this.leader.get() : null;
	}

}
