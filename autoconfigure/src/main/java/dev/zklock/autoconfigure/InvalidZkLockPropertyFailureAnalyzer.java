package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because a {@code zklock.*} property has a value zklock cannot
 * use: the description names the property and its value, the action the fix.
 */
class InvalidZkLockPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidZkLockPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidZkLockPropertyException cause) {
		return new FailureAnalysis(cause.getMessage() + ".", cause.getAction(), cause);
	}

}
