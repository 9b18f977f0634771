package dev.zklock.lock.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import dev.zklock.LockMode;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.support.CallStyle;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * A {@code @ZkLocked} annotation resolved and validated for one method of one target class.
 *
 * @param method the method as the target class declares or inherits it
 * @param keyExpression the parsed key expression, or {@code null} when the key is fixed
 * @param keyText the key expression's source, or the fixed key
 * @param fixedKeys the keys when there is no expression
 * @param mode the lock mode
 * @param waitTime the wait time, {@code null} for the template's default, negative for forever
 * @param onTimeout what to do when the lock is not obtained in time
 * @param style how the method delivers its result, so when its work ends
 */
record LockSpec(Method method, @Nullable Expression keyExpression, String keyText, List<String> fixedKeys,
		LockMode mode, @Nullable Duration waitTime, OnLockTimeout onTimeout, CallStyle style) {

}
