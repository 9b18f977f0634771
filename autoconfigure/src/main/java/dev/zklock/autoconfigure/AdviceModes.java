package dev.zklock.autoconfigure;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Reads {@code zklock.advice-mode} for the infrastructure beans that are created before the
 * configuration properties bean, and checks that the AspectJ mode has its aspects.
 */
final class AdviceModes {

	static final String PROPERTY = "zklock.advice-mode";

	private static final String LOCK_ASPECT = "dev.zklock.aspects.ZkLockedAspect";

	private AdviceModes() {
	}

	/**
	 * Return the advice mode the environment sets.
	 * @throws MissingAspectsException in AspectJ mode without the zklock-aspects module, whose
	 * aspects would be the only way in
	 */
	static AdviceMode of(Environment environment) {
		AdviceMode mode = Binder.get(environment).bind(PROPERTY, AdviceMode.class).orElse(AdviceMode.PROXY);
		if (mode == AdviceMode.ASPECTJ && !ClassUtils.isPresent(LOCK_ASPECT, AdviceModes.class.getClassLoader())) {
			throw new MissingAspectsException();
		}
		return mode;
	}

}
