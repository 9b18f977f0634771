package dev.zklock.benchmarks.library;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The requests of zklock's uncontended cycle (a create, a read of the key's children sent behind
 * it, a delete), without a lock around them, in two shapes: every reply handed to the waiting
 * caller by ZooKeeper's event thread (the core's shape today), or the caller waiting on the read
 * and the delete itself, as the floor waits on its create and delete (the read finding the node
 * by an id in its name, the create's reply left to the event thread). What separates the first
 * from the floor is the shape of the waits; what separates zklock from the first is the core's own
 * work. It excludes nobody: a yardstick, not a lock.
 */
final class RequestShapeCycle implements ExclusiveLocks {

	private static final byte[] NO_DATA = new byte[0];

	private final CuratorFramework client;

	private final String basePath;

	private final boolean callerWaits;

	private final Set<String> keys = ConcurrentHashMap.newKeySet();

	private final String prefix = Long.toHexString(System.nanoTime());

	private final AtomicLong ids = new AtomicLong();

	RequestShapeCycle(CuratorFramework client, String basePath, boolean callerWaits) {
		this.client = client;
		this.basePath = basePath;
		this.callerWaits = callerWaits;
	}

	@Override
	public void runExclusive(String key, Runnable work) throws Exception {
		String keyPath = ZKPaths.makePath(this.basePath, key);
		if (this.keys.add(keyPath)) {
			this.client.createContainers(keyPath);
		}
		String path;
		try {
			path = createAndRead(keyPath);
		}
		catch (KeeperException.NoNodeException ex) {
			// The server reaped the key's container while it had no child: make it again, as a
			// lock makes it on a key's first use.
			this.client.createContainers(keyPath);
			path = createAndRead(keyPath);
		}
		try {
			work.run();
		}
		finally {
			if (this.callerWaits) {
				this.client.delete().forPath(path);
			}
			else {
				CompletableFuture<Void> deleted = new CompletableFuture<>();
				this.client.delete().inBackground((client, event) -> answer(event, deleted, null)).forPath(path);
				deleted.get();
			}
		}
	}

	private String createAndRead(String keyPath) throws Exception {
		String name = "_c_" + this.prefix + "-" + this.ids.incrementAndGet() + "-lock-";
		if (this.callerWaits) {
			return createAndReadOnCaller(keyPath, name);
		}
		try {
			return createAndReadOnEventThread(keyPath, name);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

	private String createAndReadOnCaller(String keyPath, String name) throws Exception {
		this.client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground((client, event) -> {
			})
			.forPath(ZKPaths.makePath(keyPath, name), NO_DATA);
		List<String> children = this.client.getChildren().forPath(keyPath);
		String ours = children.stream()
			.filter((child) -> child.startsWith(name))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("The read sent behind the create did not see its node"));
		return ZKPaths.makePath(keyPath, ours);
	}

	private String createAndReadOnEventThread(String keyPath, String name) throws Exception {
		CompletableFuture<String> created = new CompletableFuture<>();
		CompletableFuture<List<String>> read = new CompletableFuture<>();
		this.client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground((client, event) -> answer(event, created, event.getName()))
			.forPath(ZKPaths.makePath(keyPath, name), NO_DATA);
		this.client.getChildren()
			.inBackground((client, event) -> answer(event, read, event.getChildren()))
			.forPath(keyPath);
		String path = created.get();
		read.get();
		return path;
	}

	/**
	 * Complete a waiting caller's future from a background request's event: with the value, or
	 * with the request's error.
	 */
	static <T> void answer(CuratorEvent event, CompletableFuture<T> answer, T value) {
		if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
			answer.complete(value);
		}
		else {
			answer.completeExceptionally(KeeperException.create(KeeperException.Code.get(event.getResultCode()),
					event.getPath()));
		}
	}

	/**
	 * Wait for an answer that a callback completes, throwing the request's own error.
	 */
	static <T> T awaited(CompletableFuture<T> answer) throws Exception {
		try {
			return answer.get();
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

}
