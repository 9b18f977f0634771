package dev.zklock.support;

import java.lang.reflect.Method;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.ReactiveAdapter;

/**
 * Wraps the reactive result of an advised method (style {@link CallStyle#REACTIVE}): the advice
 * works on a {@code Mono} or a {@code Flux}, and the caller gets the method's own type back.
 * Loaded only when Project Reactor is present.
 *
 * @since 0.1.0
 */
public final class ReactiveCalls {

	private ReactiveCalls() {
	}

	/**
	 * Wrap a reactive call: the advice's {@code around} is given the call's own publisher, made
	 * by proceeding on subscription, and decides what the caller sees.
	 * @param method the advised method
	 * @param call the rest of the call
	 * @param around for a single-value type, a function of the call's {@code Mono}; the caller
	 * then gets its result
	 * @param aroundMany the same for a multi-value type, on a {@code Flux}
	 * @return the result in the method's type
	 */
	public static Object wrap(Method method, AdvisedCall call, Function<Mono<Object>, Mono<Object>> around,
			Function<Flux<Object>, Flux<Object>> aroundMany) {
		ReactiveAdapter adapter = adapter(method);
		Publisher<Object> result = adapter.isMultiValue() ? aroundMany.apply(Flux.defer(() -> proceed(adapter, call)))
				: around.apply(Mono.defer(() -> Mono.from(proceed(adapter, call))));
		return adapter.fromPublisher(result);
	}

	/**
	 * Run a call's publisher in the call's scope: the scope is put in the Reactor context of the
	 * publisher (inside the scopes already there, for a call made inside another), where
	 * {@code ReactiveZkLockContext} and Reactor's automatic context propagation find it, and is
	 * the current thread's while the publisher is subscribed, so that a method body that runs on
	 * subscription sees it in {@code ZkLockContext} or {@code ZkLeaderContext}.
	 * @param source the call's publisher
	 * @param scope the call's scope, which the caller ends
	 * @return the publisher in its scope
	 */
	public static <T> Flux<T> inScope(Publisher<T> source, CallContext.Scope scope) {
		return Flux.<T>deferContextual((view) -> {
			CallContext context = view.get(CallContext.KEY);
			return Flux.from((subscriber) -> {
				@Nullable CallContext outer = CallContext.current();
				CallContext.set(context);
				try {
					source.subscribe(subscriber);
				}
				finally {
					CallContext.set(outer);
				}
			});
		}).contextWrite((context) -> context.put(CallContext.KEY,
				CallContext.of(scope, context.<@Nullable CallContext>getOrDefault(CallContext.KEY, null))));
	}

	/**
	 * Return an empty result in the method's type.
	 * @param method the method
	 * @return the empty result
	 */
	public static Object empty(Method method) {
		return adapter(method).fromPublisher(Mono.empty());
	}

	/**
	 * Return an error signal in the method's type, made on subscription.
	 * @param method the method
	 * @param error makes the error
	 * @return the failed result
	 */
	public static Object error(Method method, Supplier<? extends Throwable> error) {
		return adapter(method).fromPublisher(Mono.error(error));
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> proceed(ReactiveAdapter adapter, AdvisedCall call) {
		try {
			Object result = call.proceed();
			return (result != null) ? (Publisher<Object>) adapter.toPublisher(result) : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	private static ReactiveAdapter adapter(Method method) {
		ReactiveAdapter adapter = CallStyle.adapter(method);
		if (adapter == null) {
			throw new IllegalStateException("No reactive adapter for " + CallStyle.reactiveType(method).getName());
		}
		return adapter;
	}

}
