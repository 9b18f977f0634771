package dev.zklock.lock.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Supplier;

import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.lock.NodeOwners;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.CallStyle;
import dev.zklock.support.SkippedCalls;
import org.jspecify.annotations.Nullable;

/**
 * What a call to a {@code @ZkLocked} method does, whichever way it was intercepted (a proxy's
 * advisor or a woven aspect): look up the method's spec, evaluate its keys, and run the call
 * through the {@link ZkLockTemplate} holding those locks; on timeout, skip the call or throw
 * {@link LockTimeoutException} as the spec says. The method's own exceptions, checked ones
 * included, reach the caller unchanged. A method that returns a {@code CompletionStage} or a
 * reactive type holds its locks until its work ends ({@link AsyncLockCalls},
 * {@link ReactiveLockCalls}).
 *
 * @since 0.1.0
 */
public final class LockAdvice {

	private final LockSpecs specs;

	private final Supplier<ZkLockTemplate> template;

	LockAdvice(LockSpecs specs, Supplier<ZkLockTemplate> template) {
		this.specs = specs;
		this.template = template;
	}

	/**
	 * Run a call to a method, holding the locks of its spec; a method without one just runs.
	 * @param target the object called, {@code null} for none
	 * @param targetClass the class whose annotations apply: the target's user class
	 * @param method the method called
	 * @param args the arguments of the call
	 * @param call the rest of the call
	 * @return the method's result, or the value a skipped call returns
	 * @throws Throwable the method's own exception, or {@link LockTimeoutException}
	 */
	public @Nullable Object invoke(@Nullable Object target, Class<?> targetClass, Method method, Object[] args,
			AdvisedCall call) throws Throwable {
		LockSpec spec = this.specs.specFor(method, targetClass, targetClass.getName());
		if (spec == null) {
			return call.proceed();
		}
		List<String> keys = this.specs.keys(spec, target, targetClass, args);
		ZkLockTemplate template = this.template.get();
		if (spec.style() == CallStyle.REACTIVE) {
			return ReactiveLockCalls.reactive(spec, keys, template, call);
		}
		// The lock nodes this call asks for name it by its bean and method.
		@Nullable String outer = NodeOwners.callingAs(targetClass.getSimpleName() + "#" + method.getName());
		try {
			if (spec.style() == CallStyle.COMPLETION_STAGE) {
				return AsyncLockCalls.completionStage(spec, keys, template, call);
			}
			return template.executeOrElse(spec.keyText(), keys, spec.mode(), spec.waitTime(), (lock) -> call.proceed(),
					() -> timedOut(spec, keys, template));
		}
		finally {
			NodeOwners.restore(outer);
		}
	}

	/**
	 * Return the class whose annotations apply to calls on a target: the class the application
	 * wrote, behind any proxy or generated subclass.
	 * @param target the object called
	 * @return its user class
	 */
	public static Class<?> targetClass(Object target) {
		return LockSpecs.userClass(target);
	}

	private static @Nullable Object timedOut(LockSpec spec, List<String> keys, ZkLockTemplate template) {
		if (spec.onTimeout() == OnLockTimeout.SKIP) {
			return SkippedCalls.result(spec.method());
		}
		throw AsyncLockCalls.timeout(spec, keys, template);
	}

}
