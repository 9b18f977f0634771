package dev.zklock.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.ACL;

/**
 * Makes a real client fail to send requests of one kind: the ZooKeeper handle throws from the
 * background call before the request is queued, as it does when something on the calling thread
 * refuses a wait (BlockHound on a non-blocking thread, where the client's queue lock is
 * contended), or the JVM runs out of memory. Curator logs such a failure and never calls the
 * request's callback unless the request names a listener for it.
 */
public final class SendFaults {

	private final Map<String, AtomicInteger> armed = new ConcurrentHashMap<>();

	private final AtomicInteger thrown = new AtomicInteger();

	/**
	 * Make the next {@code times} requests of a kind fail to send.
	 * @param kind {@code create}, {@code multi}, {@code getChildren}, {@code exists},
	 * {@code getData}, {@code setData}, {@code delete} or {@code sync}
	 * @param times how many of them
	 */
	public void fail(String kind, int times) {
		this.armed.computeIfAbsent(kind, (name) -> new AtomicInteger()).addAndGet(times);
	}

	/**
	 * Return how many sends failed so far.
	 */
	public int thrown() {
		return this.thrown.get();
	}

	/**
	 * Return a connected client of the server whose sends fail when armed to.
	 */
	public CuratorFramework client(String connectString) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5000)
			.retryPolicy(new ExponentialBackoffRetry(50, 5, 1000))
			.zookeeperFactory((connect, sessionTimeout, watcher, canBeReadOnly) -> new FailingZooKeeper(connect,
					sessionTimeout, watcher, canBeReadOnly))
			.build();
		client.start();
		if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
			client.close();
			throw new IllegalStateException("Test client did not connect");
		}
		return client;
	}

	private void check(String kind) {
		AtomicInteger left = this.armed.get(kind);
		if (left != null && left.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
			this.thrown.incrementAndGet();
			throw new IllegalStateException("Injected fault: the client could not send a " + kind + " request");
		}
	}

	private final class FailingZooKeeper extends ZooKeeperAdmin {

		FailingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
				throws java.io.IOException {
			super(connectString, sessionTimeout, watcher, canBeReadOnly);
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode createMode,
				AsyncCallback.StringCallback cb, Object ctx) {
			check("create");
			super.create(path, data, acl, createMode, cb, ctx);
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode createMode,
				AsyncCallback.Create2Callback cb, Object ctx) {
			check("create");
			super.create(path, data, acl, createMode, cb, ctx);
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode createMode,
				AsyncCallback.Create2Callback cb, Object ctx, long ttl) {
			check("create");
			super.create(path, data, acl, createMode, cb, ctx, ttl);
		}

		@Override
		public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback cb, Object ctx) {
			check("multi");
			super.multi(ops, cb, ctx);
		}

		/**
		 * The transaction a waiting thread sends itself (the port's synchronous one).
		 */
		@Override
		public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
			check("multi");
			return super.multi(ops);
		}

		@Override
		public void getChildren(String path, Watcher watcher, AsyncCallback.Children2Callback cb, Object ctx) {
			check("getChildren");
			super.getChildren(path, watcher, cb, ctx);
		}

		@Override
		public void getChildren(String path, boolean watch, AsyncCallback.Children2Callback cb, Object ctx) {
			check("getChildren");
			super.getChildren(path, watch, cb, ctx);
		}

		@Override
		public void exists(String path, Watcher watcher, AsyncCallback.StatCallback cb, Object ctx) {
			check("exists");
			super.exists(path, watcher, cb, ctx);
		}

		@Override
		public void exists(String path, boolean watch, AsyncCallback.StatCallback cb, Object ctx) {
			check("exists");
			super.exists(path, watch, cb, ctx);
		}

		@Override
		public void getData(String path, Watcher watcher, AsyncCallback.DataCallback cb, Object ctx) {
			check("getData");
			super.getData(path, watcher, cb, ctx);
		}

		@Override
		public void getData(String path, boolean watch, AsyncCallback.DataCallback cb, Object ctx) {
			check("getData");
			super.getData(path, watch, cb, ctx);
		}

		@Override
		public void setData(String path, byte[] data, int version, AsyncCallback.StatCallback cb, Object ctx) {
			check("setData");
			super.setData(path, data, version, cb, ctx);
		}

		@Override
		public void delete(String path, int version, AsyncCallback.VoidCallback cb, Object ctx) {
			check("delete");
			super.delete(path, version, cb, ctx);
		}

		@Override
		public void sync(String path, AsyncCallback.VoidCallback cb, Object ctx) {
			check("sync");
			super.sync(path, cb, ctx);
		}

	}

}
