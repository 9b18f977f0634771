package dev.zklock.lock.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.support.AnnotatedMethods;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.CachedExpressionEvaluator;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.util.ObjectUtils;
import org.springframework.util.StringUtils;

/**
 * Parses key expressions once, checks the variables they refer to, and evaluates them into
 * lock keys.
 */
final class LockKeyEvaluator extends CachedExpressionEvaluator {

	private final Map<ExpressionKey, Expression> expressions = new ConcurrentHashMap<>(64);

	private final BeanFactory beanFactory;

	private final BeanFactoryResolver beanResolver;

	LockKeyEvaluator(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
		this.beanResolver = new BeanFactoryResolver(beanFactory);
	}

	/**
	 * Parse an expression, or return the one parsed before for the method.
	 * @throws org.springframework.expression.ParseException if it is not valid SpEL
	 */
	Expression parse(String expression, Method method, Class<?> targetClass) {
		return getExpression(this.expressions, new AnnotatedElementKey(method, targetClass), expression);
	}

	/**
	 * Return the first variable the expression refers to that the method does not provide, or
	 * {@code null} when it refers only to parameters ({@code #name}, {@code #p0}, {@code #a0}),
	 * {@code #root} and {@code #this}.
	 */
	@Nullable String unknownVariable(Expression expression, Method method) {
		Set<String> known = new HashSet<>(variables(method));
		return (expression instanceof SpelExpression spel) ? unknownVariable(spel.getAST(), known) : null;
	}

	/**
	 * Return the first bean the expression refers to ({@code @name} or {@code &name}) that the
	 * bean factory does not define, or {@code null} when it defines them all.
	 */
	@Nullable String unknownBean(Expression expression) {
		return (expression instanceof SpelExpression spel) ? unknownBean(spel.getAST()) : null;
	}

	/**
	 * Describe the variables a key expression of the method may use.
	 */
	String describeVariables(Method method) {
		int count = method.getParameterCount();
		if (count == 0) {
			return "the method has no parameters; #root and @beanName are available";
		}
		List<String> positions = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			positions.add("#p" + i);
		}
		String[] names = getParameterNameDiscoverer().getParameterNames(method);
		if (names == null) {
			return "the method's parameter names are not known (compile with -parameters), so refer to them by "
					+ "position: " + String.join(", ", positions);
		}
		return "the method's parameters are #" + String.join(", #", names) + " (or by position "
				+ String.join(", ", positions) + ")";
	}

	/**
	 * Evaluate the spec's key expression for a call.
	 * @return the keys, at least one
	 * @throws IllegalArgumentException if the expression fails or gives no key, a null key or an
	 * empty key
	 */
	List<String> keys(LockSpec spec, @Nullable Object target, Class<?> targetClass, Object[] args) {
		Expression expression = spec.keyExpression();
		if (expression == null) {
			return spec.fixedKeys();
		}
		LockKeyRoot root = new LockKeyRoot(spec.method(), target, targetClass, args);
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, spec.method(), args,
				getParameterNameDiscoverer());
		context.setBeanResolver(this.beanResolver);
		Object value;
		try {
			value = expression.getValue(context);
		}
		catch (EvaluationException ex) {
			throw invalidKey(spec, "could not be evaluated: " + ex.getMessage(), ex);
		}
		if (value instanceof Collection<?> collection) {
			return keys(spec, collection.toArray());
		}
		if (value != null && value.getClass().isArray()) {
			return keys(spec, ObjectUtils.toObjectArray(value));
		}
		return List.of(key(spec, value));
	}

	private List<String> keys(LockSpec spec, Object[] values) {
		if (values.length == 0) {
			throw invalidKey(spec, "evaluated to an empty collection", null);
		}
		List<String> keys = new ArrayList<>(values.length);
		for (Object value : values) {
			keys.add(key(spec, value));
		}
		return keys;
	}

	private String key(LockSpec spec, @Nullable Object value) {
		if (value == null) {
			throw invalidKey(spec, "evaluated to null", null);
		}
		String key = value.toString();
		if (key.isEmpty()) {
			throw invalidKey(spec, "evaluated to an empty key", null);
		}
		return key;
	}

	private static IllegalArgumentException invalidKey(LockSpec spec, String problem, @Nullable Throwable cause) {
		return new IllegalArgumentException("The @ZkLocked key expression '" + spec.keyText() + "' of "
				+ AnnotatedMethods.describe(spec.method()) + " " + problem + "; the method was not called", cause);
	}

	private List<String> variables(Method method) {
		List<String> variables = new ArrayList<>(List.of("root", "this"));
		for (int i = 0; i < method.getParameterCount(); i++) {
			variables.add("p" + i);
			variables.add("a" + i);
		}
		String[] names = getParameterNameDiscoverer().getParameterNames(method);
		if (names != null) {
			variables.addAll(List.of(names));
		}
		return variables;
	}

	private @Nullable String unknownBean(SpelNode node) {
		if (node instanceof BeanReference) {
			String name = StringUtils.trimLeadingCharacter(node.toStringAST().substring(1), '&');
			name = StringUtils.trimTrailingCharacter(StringUtils.trimLeadingCharacter(name, '\''), '\'');
			if (!this.beanFactory.containsBean(name)) {
				return name;
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			String unknown = unknownBean(node.getChild(i));
			if (unknown != null) {
				return unknown;
			}
		}
		return null;
	}

	private static @Nullable String unknownVariable(SpelNode node, Set<String> known) {
		if (node instanceof VariableReference) {
			String name = node.toStringAST().substring(1);
			if (!known.contains(name)) {
				return name;
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			String unknown = unknownVariable(node.getChild(i), known);
			if (unknown != null) {
				return unknown;
			}
		}
		return null;
	}

}
