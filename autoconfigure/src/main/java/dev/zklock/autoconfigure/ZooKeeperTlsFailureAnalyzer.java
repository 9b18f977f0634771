package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because the TLS set-up of the ZooKeeper client cannot work.
 */
class ZooKeeperTlsFailureAnalyzer extends AbstractFailureAnalyzer<ZooKeeperTlsException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZooKeeperTlsException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
