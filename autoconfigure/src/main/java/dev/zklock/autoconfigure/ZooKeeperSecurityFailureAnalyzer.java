package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because the security set-up of the ZooKeeper client cannot work.
 */
class ZooKeeperSecurityFailureAnalyzer extends AbstractFailureAnalyzer<ZooKeeperSecurityException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZooKeeperSecurityException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
