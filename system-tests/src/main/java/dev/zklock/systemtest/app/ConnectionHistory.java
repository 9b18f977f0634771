package dev.zklock.systemtest.app;

import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.Operation;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Logs every change of state of the library's ZooKeeper connection (connected, suspended,
 * reconnected, lost), as the library's client reports it, at the time it is received: the
 * checker accepts a failed operation that held its lock only when a fault or such a change of its
 * process explains it.
 */
public class ConnectionHistory implements ConnectionStateListener {

	private final HistoryWriter history;

	private final String process;

	/**
	 * Create an instance that listens to the client's connection from now on.
	 * @param client the library's client
	 * @param history where to log the changes
	 * @param process the name of this process in the history
	 */
	public ConnectionHistory(CuratorFramework client, HistoryWriter history, String process) {
		this.history = history;
		this.process = process;
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		this.history.append(Operation.connection(this.process, System.currentTimeMillis(), newState.name()));
	}

}
