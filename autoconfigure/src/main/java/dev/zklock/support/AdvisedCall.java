package dev.zklock.support;

import org.jspecify.annotations.Nullable;

/**
 * The rest of an advised call: the annotated method itself, and any advice inside zklock's.
 * Both ways into zklock's advice supply it: a proxy's method invocation and a woven aspect's
 * join point.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface AdvisedCall {

	/**
	 * Go on with the call.
	 * @return the method's result
	 * @throws Throwable the method's own exception, unchanged
	 */
	@Nullable Object proceed() throws Throwable;

}
