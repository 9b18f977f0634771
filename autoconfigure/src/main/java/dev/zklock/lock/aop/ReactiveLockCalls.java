package dev.zklock.lock.aop;

import java.util.List;
import java.util.function.Supplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.zklock.ReactiveZkLockTemplate;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.ReactiveCalls;

/**
 * Runs a {@code @ZkLocked} method that returns a reactive type, or a Kotlin {@code suspend}
 * function: the lock is asked for on subscription, without blocking; the method is called once
 * it is held, and the lock released on complete, error or cancel. Loaded only when Project
 * Reactor is present.
 */
final class ReactiveLockCalls {

	private ReactiveLockCalls() {
	}

	/**
	 * Lock a method that returns a reactive type (or a Kotlin {@code suspend} function), on
	 * subscription.
	 */
	static Object reactive(LockSpec spec, List<String> keys, ZkLockTemplate template, AdvisedCall call) {
		ReactiveZkLockTemplate reactive = new ReactiveZkLockTemplate(template);
		boolean skip = spec.onTimeout() == OnLockTimeout.SKIP;
		Supplier<Mono<Object>> onTimeout = () -> skip ? Mono.empty() : Mono.error(AsyncLockCalls.timeout(spec, keys, template));
		Supplier<Flux<Object>> onTimeoutMany = () -> skip ? Flux.empty() : Flux.error(AsyncLockCalls.timeout(spec, keys, template));
		return ReactiveCalls.wrap(spec.method(), call,
				(mono) -> reactive.executeMonoOrElse(spec.keyText(), keys, spec.mode(), spec.waitTime(),
						(lock) -> mono, onTimeout),
				(flux) -> reactive.executeOrElse(spec.keyText(), keys, spec.mode(), spec.waitTime(),
						(lock) -> flux, onTimeoutMany));
	}

}
