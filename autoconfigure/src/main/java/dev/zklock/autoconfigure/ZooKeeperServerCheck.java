package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

import dev.zklock.support.ZooKeeperServerVersions;

/**
 * Checks, once connected at startup, that the ZooKeeper server has what zklock's locks and
 * elections are built on: a {@code multi} transaction that creates a container node, as the lock
 * core's first use of a key does (container nodes, and the request types that create them, came
 * in ZooKeeper 3.5). The client protocol carries no server version, so the check asks for the
 * capability itself: a {@code multi} that creates a container node under a parent that does not
 * exist. A server that knows the request answers "no node" and writes nothing; ZooKeeper 3.4
 * answers "marshalling error" (the request type is unknown to it).
 */
final class ZooKeeperServerCheck {

	private static final Log logger = LogFactory.getLog(ZooKeeperServerCheck.class);

	private static final String LACKING = "has no container nodes and no multi transaction that creates them "
			+ "(both came in ZooKeeper 3.5)";

	private ZooKeeperServerCheck() {
	}

	/**
	 * Check the server the client is connected to.
	 * @param client a connected client
	 * @param connectString the connect string, for the message
	 * @param readVersion whether the server's version may be read with a plaintext {@code srvr}
	 * four-letter word (not on a TLS port)
	 * @param timeout how long to wait for the server's answer; a server that does not answer in
	 * time, or an answer that says nothing about the server's version, passes the check
	 * @throws ZooKeeperServerTooOldException if the server does not know the request
	 */
	static void check(CuratorFramework client, String connectString, boolean readVersion, Duration timeout) {
		Code result = probe(client, timeout);
		if (result == Code.MARSHALLINGERROR || result == Code.UNIMPLEMENTED) {
			throw new ZooKeeperServerTooOldException(connectString,
					readVersion ? ZooKeeperServerVersions.read(connectString) : null, LACKING);
		}
		if (result != Code.NONODE && logger.isDebugEnabled()) {
			logger.debug("The ZooKeeper server check at '" + connectString + "' was inconclusive (" + result
					+ "): the server is taken to support container nodes");
		}
	}

	private static Code probe(CuratorFramework client, Duration timeout) {
		String path = "/zklock-server-check-" + UUID.randomUUID() + "/container";
		CompletableFuture<Code> answer = new CompletableFuture<>();
		try {
			ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
			zooKeeper.multi(List.of(Op.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER)),
					(rc, ignoredPath, context, results) -> answer.complete(Code.get(rc)), null);
			return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Code.SYSTEMERROR;
		}
		catch (ExecutionException | TimeoutException ex) {
			return Code.OPERATIONTIMEOUT;
		}
		catch (Exception ex) {
			// getZooKeeper() declares Exception: no handle, nothing to conclude.
			return Code.SYSTEMERROR;
		}
	}

}
