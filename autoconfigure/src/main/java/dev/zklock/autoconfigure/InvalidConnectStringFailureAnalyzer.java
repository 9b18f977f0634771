package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because the ZooKeeper connect string is malformed.
 */
class InvalidConnectStringFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConnectStringException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidConnectStringException cause) {
		String description = cause.getMessage() + ".";
		String action = "Set 'zklock.connect-string' to the servers of your ensemble, in the form "
				+ "'host:port[,host:port...]' (for example 'zk1:2181,zk2:2181,zk3:2181'). "
				+ "For development, set 'zklock.embedded.enabled=true' to start an embedded ZooKeeper server instead.";
		return new FailureAnalysis(description, action, cause);
	}

}
