package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because the AspectJ mode was chosen without its aspects.
 */
class MissingAspectsFailureAnalyzer extends AbstractFailureAnalyzer<MissingAspectsException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingAspectsException cause) {
		String action = "Add the dependency dev.zklock:zklock-aspects and weave it into the application (see the "
				+ "guide's \"AspectJ mode\"), or set 'zklock.advice-mode=proxy' (the default) to advise calls "
				+ "through proxies.";
		return new FailureAnalysis(cause.getMessage() + ".", action, cause);
	}

}
