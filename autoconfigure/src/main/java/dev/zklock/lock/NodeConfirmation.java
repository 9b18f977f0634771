package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Confirms with the server that a node of ours still exists, after a process pause that the
 * session may not have survived. Internal: used by the leadership (held locks confirm through
 * the lock core's port).
 */
public final class NodeConfirmation {

	private NodeConfirmation() {
	}

	/**
	 * Ask the leader of the ensemble, not just the server the client is connected to, whether the
	 * node exists: a sync, then a read, waiting at most the given time in all.
	 * @param client the client
	 * @param path the node
	 * @param timeout how long to wait for the answer
	 * @return the node's stat, or {@code null} if it is gone
	 * @throws TimeoutException if no answer came in time
	 * @throws Exception if the server could not answer (connection loss, expired session)
	 */
	public static @Nullable Stat nodeStat(CuratorFramework client, String path, Duration timeout) throws Exception {
		return await(nodeStatAsync(client, path), timeout);
	}

	/**
	 * Ask the leader of the ensemble whether the node exists, in the background: a sync, then a
	 * read.
	 * @param client the client
	 * @param path the node
	 * @return the node's stat, {@code null} if it is gone, or the server's error
	 */
	static CompletableFuture<@Nullable Stat> nodeStatAsync(CuratorFramework client, String path) {
		CompletableFuture<@Nullable Stat> answer = new CompletableFuture<>();
		try {
			client.sync().inBackground((c, synced) -> {
				if (synced.getResultCode() != KeeperException.Code.OK.intValue()) {
					// A read without the sync could answer from a server behind the ensemble.
					answer.completeExceptionally(
							KeeperException.create(KeeperException.Code.get(synced.getResultCode()), path));
					return;
				}
				try {
					c.checkExists().inBackground((c2, event) -> {
						int code = event.getResultCode();
						if (code == KeeperException.Code.OK.intValue()) {
							answer.complete(event.getStat());
						}
						else if (code == KeeperException.Code.NONODE.intValue()) {
							answer.complete(null);
						}
						else {
							answer.completeExceptionally(KeeperException.create(KeeperException.Code.get(code), path));
						}
					}).forPath(path);
				}
				catch (Exception ex) {
					answer.completeExceptionally(ex);
				}
			}).forPath(path);
		}
		catch (Exception ex) {
			answer.completeExceptionally(ex);
		}
		return answer;
	}

	private static <T> T await(CompletableFuture<T> answer, Duration timeout) throws Exception {
		try {
			return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

}
