package dev.zklock.support;

import org.jspecify.annotations.Nullable;

/**
 * The rest of an advised call: the method itself, and any advice inside this one.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface AdvisedCall {

	/**
	 * Make the call.
	 * @return what the method returns
	 * @throws Throwable what the method throws
	 */
	@Nullable Object proceed() throws Throwable;

}
