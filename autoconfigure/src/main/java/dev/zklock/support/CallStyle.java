package dev.zklock.support;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * How an advised method delivers its result, and so how the advice must wait for its end: on
 * the calling thread, through a {@link CompletionStage}, or through a reactive type (Reactor's
 * {@code Mono} and {@code Flux}, other types Spring's {@link ReactiveAdapterRegistry} adapts, and
 * Kotlin {@code suspend} functions, which Spring's proxies call as a {@code Mono} or a
 * {@code Flux}).
 *
 * @since 0.1.0
 */
public enum CallStyle {

	/**
	 * The result is there when the method returns.
	 */
	BLOCKING,

	/**
	 * The method returns a {@code CompletionStage} or a {@code CompletableFuture}.
	 */
	COMPLETION_STAGE,

	/**
	 * The method returns a reactive type, or is a Kotlin {@code suspend} function.
	 */
	REACTIVE;

	private static final boolean reactorPresent = ClassUtils.isPresent("reactor.core.publisher.Mono",
			CallStyle.class.getClassLoader());

	private static final boolean coroutinesReactorPresent = ClassUtils
		.isPresent("kotlinx.coroutines.reactor.MonoKt", CallStyle.class.getClassLoader());

	private static final String FLOW = "kotlinx.coroutines.flow.Flow";

	/**
	 * Return the style of a method.
	 * @param method the method
	 * @return its style
	 */
	public static CallStyle of(Method method) {
		Class<?> type = method.getReturnType();
		if (type == CompletionStage.class || type == CompletableFuture.class) {
			return COMPLETION_STAGE;
		}
		if (reactorPresent && (isSuspending(method) || isAdaptable(method))) {
			return REACTIVE;
		}
		return BLOCKING;
	}

	/**
	 * Return why the advice cannot wait for the end of the method's work, or {@code null} when
	 * it can.
	 * @param method the method
	 * @return the problem, or {@code null}
	 */
	public static @Nullable String problem(Method method) {
		Class<?> type = method.getReturnType();
		if (of(method) != BLOCKING) {
			return null;
		}
		if (KotlinDetector.isSuspendingFunction(method)) {
			return "it is a Kotlin suspend function, which needs Reactor and kotlinx-coroutines-reactor on the "
					+ "class path; add them, or make the function a plain one";
		}
		if (Future.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)) {
			return "it returns " + type.getName() + ", whose end the advice cannot wait for without blocking; "
					+ "declare the return type as CompletableFuture or CompletionStage";
		}
		if (isAssignable(type, "org.reactivestreams.Publisher") || isAssignable(type, FLOW)) {
			return "it returns " + type.getName() + ", " + (reactorPresent ? "which no reactive adapter of Spring "
					+ "knows; return a Mono or a Flux" : "which needs Project Reactor on the class path; add "
							+ "io.projectreactor:reactor-core, or return a CompletableFuture");
		}
		return null;
	}

	/**
	 * Return the adapter between the method's reactive type and a {@code Publisher}, for a
	 * method of style {@link #REACTIVE}.
	 * @param method the method
	 * @return the adapter, or {@code null} if the method's type has none
	 */
	public static @Nullable ReactiveAdapter adapter(Method method) {
		return ReactiveAdapterRegistry.getSharedInstance().getAdapter(reactiveType(method));
	}

	/**
	 * Return the type a reactive advice hands back to the proxy: the declared return type, or for
	 * a {@code suspend} function, {@code Mono} (or {@code Flux} for one returning a {@code Flow}).
	 * @param method the method
	 * @return the type
	 */
	public static Class<?> reactiveType(Method method) {
		if (!isSuspending(method)) {
			return method.getReturnType();
		}
		boolean flow = FLOW.equals(new MethodParameter(method, -1).getParameterType().getName());
		return ClassUtils.resolveClassName(flow ? "reactor.core.publisher.Flux" : "reactor.core.publisher.Mono",
				CallStyle.class.getClassLoader());
	}

	/**
	 * Return whether the method returns a reactive type whose adapter makes exactly that type
	 * (not a supertype the caller could not take, nor a future).
	 */
	private static boolean isAdaptable(Method method) {
		Class<?> type = method.getReturnType();
		if (Future.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)) {
			return false;
		}
		ReactiveAdapter adapter = adapter(method);
		return adapter != null && type.isAssignableFrom(adapter.getReactiveType());
	}

	private static boolean isSuspending(Method method) {
		return KotlinDetector.isSuspendingFunction(method) && coroutinesReactorPresent;
	}

	private static boolean isAssignable(Class<?> type, String supertypeName) {
		if (type.getName().equals(supertypeName)) {
			return true;
		}
		for (Class<?> implemented : type.getInterfaces()) {
			if (isAssignable(implemented, supertypeName)) {
				return true;
			}
		}
		Class<?> superclass = type.getSuperclass();
		return superclass != null && isAssignable(superclass, supertypeName);
	}

}
