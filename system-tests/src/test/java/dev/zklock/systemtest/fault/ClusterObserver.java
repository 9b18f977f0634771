package dev.zklock.systemtest.fault;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Reads from ZooKeeper, with a client of its own, which application process leads the
 * workload's group and which hold a lock. A process is known by its election node: the node
 * holds its participant id, {@code <process>@<host>:<pid>}, and is owned by its session, which
 * also owns its lock nodes.
 */
final class ClusterObserver implements AutoCloseable {

	private static final String LOCKS = "/zklock/locks";

	private static final String GROUP = "/zklock/leaders/ticks";

	private static final String WRITE = "__WRIT__";

	private static final String READ = "__READ__";

	private static final int SEQUENCE_LENGTH = 10;

	private final CuratorFramework client;

	ClusterObserver(String connectString) {
		this.client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.ensembleTracker(false)
			.sessionTimeoutMs(30_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryNTimes(5, 200))
			.build();
		this.client.start();
	}

	/**
	 * Return the process that leads the workload's group, as ZooKeeper sees it.
	 * @return the process name, or empty when there is no participant
	 */
	Optional<String> leader() throws Exception {
		for (String child : sorted(children(GROUP))) {
			String id = data(ZKPaths.makePath(GROUP, child));
			if (id != null) {
				return Optional.of(process(id));
			}
		}
		return Optional.empty();
	}

	/**
	 * Return the holders of a lock now.
	 * @param key the lock key, made of characters that need no encoding
	 * @return the holders whose process is known
	 */
	List<Holder> holders(String key) throws Exception {
		String lockPath = ZKPaths.makePath(LOCKS, key);
		Map<Long, String> processes = processesBySession();
		List<Holder> holders = new ArrayList<>();
		for (String child : sorted(children(lockPath))) {
			boolean exclusive = child.contains(WRITE);
			if (exclusive && !holders.isEmpty()) {
				break;
			}
			Stat stat = this.client.checkExists().forPath(ZKPaths.makePath(lockPath, child));
			if (stat == null) {
				continue;
			}
			String process = processes.get(stat.getEphemeralOwner());
			if (process != null) {
				holders.add(new Holder(process, key, stat.getCzxid(), exclusive));
			}
			if (exclusive) {
				break;
			}
		}
		return holders;
	}

	@Override
	public void close() {
		this.client.close();
	}

	private Map<Long, String> processesBySession() throws Exception {
		Map<Long, String> processes = new HashMap<>();
		for (String child : children(GROUP)) {
			String path = ZKPaths.makePath(GROUP, child);
			Stat stat = new Stat();
			try {
				byte[] data = this.client.getData().storingStatIn(stat).forPath(path);
				processes.put(stat.getEphemeralOwner(), process(new String(data, StandardCharsets.UTF_8)));
			}
			catch (KeeperException.NoNodeException ex) {
				// Gone meanwhile.
			}
		}
		return processes;
	}

	private List<String> children(String path) throws Exception {
		try {
			return this.client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	private @Nullable String data(String path) throws Exception {
		try {
			return new String(this.client.getData().forPath(path), StandardCharsets.UTF_8);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	private static List<String> sorted(List<String> children) {
		return children.stream()
			.filter((child) -> child.length() > SEQUENCE_LENGTH)
			.sorted(Comparator.comparing((String child) -> child.substring(child.length() - SEQUENCE_LENGTH)))
			.toList();
	}

	private static String process(String participantId) {
		int at = participantId.indexOf('@');
		return (at > 0) ? participantId.substring(0, at) : participantId;
	}

	/**
	 * A holder of a lock.
	 *
	 * @param process the application process
	 * @param key the lock key
	 * @param token the fencing token of its grant, the creation zxid of its node
	 * @param exclusive whether it holds the lock exclusively
	 */
	record Holder(String process, String key, long token, boolean exclusive) {

	}

}
