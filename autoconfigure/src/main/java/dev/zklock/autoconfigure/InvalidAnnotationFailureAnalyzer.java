package dev.zklock.autoconfigure;

import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.InvalidAnnotationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because a zklock annotation cannot work as declared: the
 * description says what is wrong, the action what to do, where the problem says it after a
 * semicolon ("the waitTime '-5s' is not valid ...; use ...").
 */
class InvalidAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidAnnotationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidAnnotationException cause) {
		String message = String.valueOf(cause.getMessage());
		String problem = cause.getProblem();
		String where = AnnotatedMethods.describe(cause.getMethod()) + " in bean '" + cause.getBeanName() + "'";
		int split = problem.lastIndexOf("; ");
		if (split < 0 || !message.endsWith(problem)) {
			return new FailureAnalysis(message + ".", "Fix the annotation on " + where + ": " + problem + ".", cause);
		}
		String description = message.substring(0, message.length() - problem.length() + split);
		return new FailureAnalysis(description + ".", "On " + where + ": " + problem.substring(split + 2) + ".",
				cause);
	}

}
