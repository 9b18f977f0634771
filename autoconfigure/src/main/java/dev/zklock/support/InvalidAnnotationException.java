package dev.zklock.support;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when a zklock annotation is used in a way that cannot work: a bad key
 * expression, an invalid wait time, a method the proxy cannot intercept. The message names the
 * bean, the method and what to fix.
 *
 * @since 0.1.0
 */
public class InvalidAnnotationException extends ZkLockException {

	private final String beanName;

	private final Method method;

	private final String problem;

	public InvalidAnnotationException(Class<? extends Annotation> annotation, String beanName, Method method,
			String problem) {
		this(annotation, beanName, method, problem, null);
	}

	public InvalidAnnotationException(Class<? extends Annotation> annotation, String beanName, Method method,
			String problem, @org.jspecify.annotations.Nullable Throwable cause) {
		super("Invalid @" + annotation.getSimpleName() + " on " + AnnotatedMethods.describe(method) + " of bean '"
				+ beanName + "': " + problem, cause);
		this.beanName = beanName;
		this.method = method;
		this.problem = problem;
	}

	/**
	 * Return the name of the bean whose method is annotated.
	 * @return the bean name
	 */
	public String getBeanName() {
		return this.beanName;
	}

	/**
	 * Return the annotated method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Return what is wrong, without the bean and method.
	 * @return the problem
	 */
	public String getProblem() {
		return this.problem;
	}

}
