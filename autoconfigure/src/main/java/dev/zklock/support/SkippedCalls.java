package dev.zklock.support;

import java.lang.reflect.Method;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What a call returns when the advice decides not to make it (a lock not obtained in time with
 * {@code SKIP}, a leader-only call on a non-leader): nothing for {@code void}, an empty
 * {@link Optional} for {@code Optional}, {@code null} for other reference types.
 */
public final class SkippedCalls {

	private SkippedCalls() {
	}

	/**
	 * Return why a call to the method cannot be skipped, or {@code null} when it can.
	 * @param method the method
	 * @return the reason, or {@code null}
	 */
	public static @Nullable String skipProblem(Method method) {
		Class<?> type = method.getReturnType();
		if (type.isPrimitive() && type != void.class) {
			return "SKIP needs a method that can return without a value, but it returns the primitive " + type.getName()
					+ "; return void, a wrapper type (" + wrapperName(type) + ") or an Optional, or use THROW";
		}
		return null;
	}

	/**
	 * Return the value a skipped call to the method returns.
	 * @param method the method
	 * @return the value, or {@code null}
	 */
	public static @Nullable Object result(Method method) {
		return (method.getReturnType() == Optional.class) ? Optional.empty() : null;
	}

	private static String wrapperName(Class<?> primitive) {
		return switch (primitive.getName()) {
			case "int" -> "Integer";
			case "char" -> "Character";
			default -> Character.toUpperCase(primitive.getName().charAt(0)) + primitive.getName().substring(1);
		};
	}

}
