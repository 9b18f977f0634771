package dev.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that failed because the ZooKeeper server is older than zklock supports.
 */
class ZooKeeperServerTooOldFailureAnalyzer extends AbstractFailureAnalyzer<ZooKeeperServerTooOldException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZooKeeperServerTooOldException cause) {
		String description = cause.getMessage() + ".";
		String action = "Upgrade the ZooKeeper ensemble at '" + cause.getConnectString() + "' to "
				+ ZooKeeperServerTooOldException.OLDEST_SUPPORTED
				+ " or later, or set 'zklock.connect-string' to the servers of an ensemble that is (see the guide's "
				+ "\"Which ZooKeeper servers\"). For development, 'zklock.embedded.enabled=true' starts an embedded "
				+ "server of the version zklock brings.";
		return new FailureAnalysis(description, action, cause);
	}

}
