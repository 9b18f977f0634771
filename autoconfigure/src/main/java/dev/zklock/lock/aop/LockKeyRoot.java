package dev.zklock.lock.aop;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * The root object of a key expression: {@code #root.method}, {@code #root.target},
 * {@code #root.targetClass}, {@code #root.args}, {@code #root.methodName}.
 */
final class LockKeyRoot {

	private final Method method;

	private final @Nullable Object target;

	private final Class<?> targetClass;

	private final Object[] args;

	LockKeyRoot(Method method, @Nullable Object target, Class<?> targetClass, Object[] args) {
		this.method = method;
		this.target = target;
		this.targetClass = targetClass;
		this.args = args;
	}

	public Method getMethod() {
		return this.method;
	}

	public String getMethodName() {
		return this.method.getName();
	}

	public @Nullable Object getTarget() {
		return this.target;
	}

	public Class<?> getTargetClass() {
		return this.targetClass;
	}

	public Object[] getArgs() {
		return this.args;
	}

}
