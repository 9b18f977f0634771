package dev.zklock.lock.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.CallStyle;
import dev.zklock.support.InvalidAnnotationException;
import dev.zklock.support.SkippedCalls;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * The {@link ZkLocked @ZkLocked} methods of the application: each annotation resolved once per
 * method and target class into a validated {@link LockSpec} ("not annotated" cached too), and
 * the evaluation of their keys.
 *
 * @since 0.1.0
 */
public final class LockSpecs {

	private static final Optional<LockSpec> NOT_LOCKED = Optional.empty();

	private final ConfigurableBeanFactory beanFactory;

	private final LockKeyEvaluator evaluator;

	private final AdviceMode adviceMode;

	private final Map<MethodClassKey, Optional<LockSpec>> specs = new ConcurrentHashMap<>(256);

	/**
	 * Create an instance.
	 * @param beanFactory the bean factory that resolves placeholders in wait times and the beans
	 * that key expressions refer to
	 */
	public LockSpecs(ConfigurableBeanFactory beanFactory) {
		this(beanFactory, AdviceMode.PROXY);
	}

	/**
	 * Create an instance whose checks fit the way the advice is applied: with
	 * {@link AdviceMode#ASPECTJ}, private and final methods are accepted.
	 * @param beanFactory the bean factory that resolves placeholders in wait times and the beans
	 * that key expressions refer to
	 * @param adviceMode how the advice is applied
	 */
	public LockSpecs(ConfigurableBeanFactory beanFactory, AdviceMode adviceMode) {
		this.beanFactory = beanFactory;
		this.evaluator = new LockKeyEvaluator(beanFactory);
		this.adviceMode = adviceMode;
	}

	/**
	 * Return the advisor that runs these {@code @ZkLocked} methods (marked directly, on the
	 * method they override or implement, or through a meta-annotation) while holding their locks.
	 * Its order decides where the lock is taken among other advice: the default,
	 * {@code zklock.lock.order = Ordered.LOWEST_PRECEDENCE - 100}, runs outside a
	 * {@code @Transactional} transaction, so the lock is held from before it begins until after
	 * it ends.
	 * @param template the lock template, looked up on the first call
	 * @param order the order of the advice among other advisors
	 * @return the advisor
	 */
	public DefaultPointcutAdvisor advisor(Supplier<ZkLockTemplate> template, int order) {
		DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
				new AnnotationMatchingPointcut(null, ZkLocked.class, true),
				new LockInterceptor(advice(template)));
		advisor.setOrder(order);
		return advisor;
	}

	/**
	 * Return the advice that runs these {@code @ZkLocked} methods while holding their locks,
	 * for a way in other than the {@link #advisor advisor}, such as a woven aspect.
	 * @param template the lock template, looked up on the first call
	 * @return the advice
	 */
	public LockAdvice advice(Supplier<ZkLockTemplate> template) {
		return new LockAdvice(this, SingletonSupplier.of(template));
	}

	/**
	 * Return the spec of a method called on a target class, or {@code null} when the method is
	 * not annotated.
	 * @param method the method, possibly declared by an interface or a superclass
	 * @param targetClass the user class of the target
	 * @param beanName the name of the target bean, for error messages
	 * @throws InvalidAnnotationException if the annotation cannot work
	 */
	@Nullable LockSpec specFor(Method method, Class<?> targetClass, String beanName) {
		MethodClassKey key = new MethodClassKey(method, targetClass);
		Optional<LockSpec> spec = this.specs.get(key);
		if (spec == null) {
			spec = Optional.ofNullable(resolve(method, targetClass, beanName));
			this.specs.put(key, spec.isPresent() ? spec : NOT_LOCKED);
		}
		return spec.orElse(null);
	}

	/**
	 * Evaluate the keys of a call.
	 * @throws IllegalArgumentException if the key is null or empty
	 */
	List<String> keys(LockSpec spec, @Nullable Object target, Class<?> targetClass, Object[] args) {
		return this.evaluator.keys(spec, target, targetClass, args);
	}

	/**
	 * Return the class whose methods a bean's annotations are looked up on: the class the
	 * application wrote, behind any proxy or generated subclass.
	 */
	static Class<?> userClass(Object bean) {
		return ClassUtils.getUserClass(AopProxyUtils.ultimateTargetClass(bean));
	}

	private @Nullable LockSpec resolve(Method method, Class<?> targetClass, String beanName) {
		if (method.getDeclaringClass() == Object.class) {
			return null;
		}
		Method specificMethod = AopUtils.getMostSpecificMethod(method, targetClass);
		ZkLocked annotation = AnnotatedElementUtils.findMergedAnnotation(specificMethod, ZkLocked.class);
		if (annotation == null) {
			return null;
		}
		Problems problems = new Problems(beanName, specificMethod);
		problems.check(AnnotatedMethods.interceptionProblem(specificMethod, targetClass, this.adviceMode));
		problems.check(CallStyle.problem(specificMethod));
		if (annotation.onTimeout() == OnLockTimeout.SKIP && CallStyle.of(specificMethod) == CallStyle.BLOCKING) {
			problems.check(SkippedCalls.skipProblem(specificMethod));
		}
		String keyText = annotation.key().trim();
		Expression expression = keyText.isEmpty() ? null
				: parseKey(keyText, specificMethod, targetClass, problems);
		List<String> fixedKeys = (expression != null) ? List.of()
				: List.of(targetClass.getSimpleName() + "." + specificMethod.getName());
		Duration waitTime = waitTime(annotation.waitTime(), problems);
		return new LockSpec(specificMethod, expression, keyText.isEmpty() ? fixedKeys.get(0) : keyText, fixedKeys,
				annotation.mode(), waitTime, annotation.onTimeout(), CallStyle.of(specificMethod));
	}

	private Expression parseKey(String keyText, Method method, Class<?> targetClass, Problems problems) {
		Expression expression;
		try {
			expression = this.evaluator.parse(keyText, method, targetClass);
		}
		catch (ParseException ex) {
			throw problems.fail("the key expression '" + keyText + "' is not valid SpEL (" + ex.getMessage()
					+ "); fix the expression", ex);
		}
		String unknown = this.evaluator.unknownVariable(expression, method);
		if (unknown != null) {
			throw problems.fail("the key expression '" + keyText + "' refers to #" + unknown
					+ ", which the method does not have; " + this.evaluator.describeVariables(method), null);
		}
		String unknownBean = this.evaluator.unknownBean(expression);
		if (unknownBean != null) {
			throw problems.fail("the key expression '" + keyText + "' refers to @" + unknownBean
					+ ", but there is no bean named '" + unknownBean + "'; define that bean or fix its name", null);
		}
		return expression;
	}

	private @Nullable Duration waitTime(String waitTime, Problems problems) {
		String resolved = waitTime;
		try {
			String value = this.beanFactory.resolveEmbeddedValue(waitTime);
			resolved = (value != null) ? value : "";
			return WaitTimes.parse(resolved);
		}
		catch (IllegalArgumentException ex) {
			String shown = "'" + waitTime + "'" + (resolved.equals(waitTime) ? "" : " (resolved to '" + resolved + "')");
			throw problems.fail("the waitTime " + shown + " is not valid: " + ex.getMessage() + "; "
					+ WaitTimes.USAGE, ex);
		}
	}

	/**
	 * Turns the problems found on one annotated method into startup failures that name the
	 * bean and the method.
	 */
	private record Problems(String beanName, Method method) {

		void check(@Nullable String problem) {
			if (problem != null) {
				throw fail(problem, null);
			}
		}

		InvalidAnnotationException fail(String problem, @Nullable Throwable cause) {
			return new InvalidAnnotationException(ZkLocked.class, this.beanName, this.method, problem, cause);
		}

	}

}
