package dev.zklock.leader;

import java.lang.reflect.Method;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.zklock.NotLeaderException;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.ReactiveCalls;

/**
 * Runs a leader-only method that returns a reactive type, or a Kotlin {@code suspend} function:
 * leadership is checked on subscription, and a non-leader's call is empty ({@code SKIP}) or an
 * error signal with {@link NotLeaderException} ({@code THROW}), without blocking. Loaded only
 * when Project Reactor is present.
 */
final class ReactiveLeaderCalls {

	private ReactiveLeaderCalls() {
	}

	static Object onSubscribe(Method method, LeaderSpec spec, AdvisedCall call, BooleanSupplier isLeader,
			Supplier<NotLeaderException> notLeader) {
		boolean skip = spec.whenNotLeader() == WhenNotLeader.SKIP;
		return ReactiveCalls.wrap(method, call,
				(mono) -> Mono.defer(() -> isLeader.getAsBoolean() ? mono : skip ? Mono.empty() : Mono.error(notLeader)),
				(flux) -> Flux.defer(() -> isLeader.getAsBoolean() ? flux : skip ? Flux.empty() : Flux.error(notLeader)));
	}

}
