package dev.zklock.support;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds annotated methods on a bean class and tells whether a proxy can intercept them.
 */
public final class AnnotatedMethods {

	private AnnotatedMethods() {
	}

	/**
	 * Return the methods of the class and its superclasses that carry the annotation, directly
	 * or as a meta-annotation, including those a proxy cannot intercept.
	 * @param type the bean's user class
	 * @param annotation the annotation type
	 * @return the annotated methods
	 */
	public static List<Method> find(Class<?> type, Class<? extends Annotation> annotation) {
		List<Method> found = new ArrayList<>();
		ReflectionUtils.doWithMethods(type, found::add,
				(method) -> !method.isBridge() && !method.isSynthetic() && method.getDeclaringClass() != Object.class
						&& AnnotatedElementUtils.hasAnnotation(method, annotation));
		return found;
	}

	/**
	 * Return why a class-based proxy cannot intercept calls to the method, or {@code null} when
	 * it can.
	 * @param method the method
	 * @param type the bean's user class
	 * @return the reason, or {@code null}
	 */
	public static @Nullable String interceptionProblem(Method method, Class<?> type) {
		return interceptionProblem(method, type, AdviceMode.PROXY);
	}

	/**
	 * Return why zklock's advice, applied in the given mode, cannot intercept calls to the
	 * method, or {@code null} when it can. Woven aspects ({@link AdviceMode#ASPECTJ}) reach
	 * private and final methods, and calls from inside the bean; neither mode advises static
	 * methods.
	 * @param method the method
	 * @param type the bean's user class
	 * @param mode how the advice is applied
	 * @return the reason, or {@code null}
	 */
	public static @Nullable String interceptionProblem(Method method, Class<?> type, AdviceMode mode) {
		int modifiers = method.getModifiers();
		if (Modifier.isStatic(modifiers)) {
			return (mode == AdviceMode.ASPECTJ)
					? "the method is static, and zklock's aspects advise instance methods only; make it an instance method"
					: "the method is static, and a proxy can only intercept instance methods; make it an instance method";
		}
		if (mode == AdviceMode.ASPECTJ) {
			return null;
		}
		if (Modifier.isPrivate(modifiers)) {
			return "the method is private, and a proxy cannot intercept private methods; make it public";
		}
		if (Modifier.isFinal(modifiers)) {
			return "the method is final, and a proxy cannot override final methods; remove 'final'";
		}
		if (Modifier.isFinal(type.getModifiers())) {
			return "the class is final, and a proxy cannot subclass it; remove 'final' from " + type.getName();
		}
		return null;
	}

	/**
	 * Describe the method as {@code SimpleClassName.method(ParamType, ...)}.
	 * @param method the method
	 * @return the description
	 */
	public static String describe(Method method) {
		String parameters = Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "(" + parameters + ")";
	}

}
