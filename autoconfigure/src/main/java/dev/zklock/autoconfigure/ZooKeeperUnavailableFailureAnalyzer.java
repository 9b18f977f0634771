package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because ZooKeeper could not be reached.
 */
class ZooKeeperUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<ZooKeeperUnavailableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZooKeeperUnavailableException cause) {
		String description = "zklock could not connect to ZooKeeper at '" + cause.getConnectString() + "' within "
				+ cause.getTimeout().toMillis() + "ms (zklock.connection-timeout), and zklock.fail-fast is on.";
		String action = "Check that ZooKeeper is running and reachable at '" + cause.getConnectString()
				+ "', or set 'zklock.connect-string' to the servers of your ensemble (host:port[,host:port...]). "
				+ "For development, set 'zklock.embedded.enabled=true' to start an embedded ZooKeeper server. "
				+ "To start without a connection and connect in the background, set 'zklock.fail-fast=false'.";
		return new FailureAnalysis(description, action, cause);
	}

}
