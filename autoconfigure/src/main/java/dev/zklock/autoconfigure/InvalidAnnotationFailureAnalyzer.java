package dev.zklock.autoconfigure;

import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.InvalidAnnotationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because a zklock annotation cannot work as declared.
 */
class InvalidAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidAnnotationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidAnnotationException cause) {
		return new FailureAnalysis(cause.getMessage() + ".", "Fix the annotation on "
				+ AnnotatedMethods.describe(cause.getMethod()) + " in bean '" + cause.getBeanName() + "': "
				+ cause.getProblem() + ".", cause);
	}

}
