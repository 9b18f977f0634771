package dev.zklock.leader;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Supplier;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.zklock.LeaderTerm;
import dev.zklock.NotLeaderException;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.CallContext;
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

	static Object onSubscribe(Method method, LeaderSpec spec, AdvisedCall call, Supplier<Optional<LeaderTerm>> term,
			Supplier<NotLeaderException> notLeader) {
		boolean skip = spec.whenNotLeader() == WhenNotLeader.SKIP;
		return ReactiveCalls.wrap(method, call,
				(mono) -> Mono.defer(() -> term.get().map((current) -> inTerm(mono, current).singleOrEmpty())
					.orElseGet(() -> skip ? Mono.empty() : Mono.error(notLeader))),
				(flux) -> Flux.defer(() -> term.get().map((current) -> inTerm(flux, current))
					.orElseGet(() -> skip ? Flux.empty() : Flux.error(notLeader))));
	}

	/**
	 * Run the call's publisher in its term, which ends with the publisher's complete, error or
	 * cancel.
	 */
	private static <T> Flux<T> inTerm(Publisher<T> source, LeaderTerm term) {
		CallContext.Scope scope = CallContext.Scope.ofTerm(term);
		return ReactiveCalls.inScope(source, scope).doFinally((signal) -> scope.end());
	}

}
