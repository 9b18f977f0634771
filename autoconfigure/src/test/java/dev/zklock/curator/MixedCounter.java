package dev.zklock.curator;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The critical sections of the mixed-process runs, kept in ZooKeeper so that processes of both
 * sides see one another: a writer creates an ephemeral {@code inside} node (one already there is
 * an overlap), reads the counter, sleeps and writes it back plus one, together with a sequential
 * node naming its side (so that a lost update shows as a counter below the number of writes),
 * then deletes {@code inside}; a reader looks for {@code inside} at its start and its end. Each
 * overlap seen is a sequential node under {@code overlaps}. The nodes of a killed holder go with
 * its session, its lock node with them.
 */
final class MixedCounter {

	static final String ROOT = "/mixed";

	static final String COUNTER = ROOT + "/counter";

	static final String INSIDE = ROOT + "/inside";

	static final String WRITES = ROOT + "/writes";

	static final String OVERLAPS = ROOT + "/overlaps";

	/**
	 * Created by the test to end the run.
	 */
	static final String STOP = ROOT + "/stop";

	/**
	 * The longest a process runs if the test never ends the run.
	 */
	private static final long LIFETIME_MILLIS = 180_000;

	private final CuratorFramework client;

	private final String side;

	MixedCounter(CuratorFramework client, String side) {
		this.client = client;
		this.side = side;
	}

	static void prepare(CuratorFramework client) throws Exception {
		client.create().creatingParentsIfNeeded().forPath(COUNTER, "0".getBytes(StandardCharsets.UTF_8));
		client.create().forPath(WRITES);
		client.create().forPath(OVERLAPS);
	}

	/**
	 * Return whether the run is over: the test created {@link #STOP}, or the process has run for
	 * its longest lifetime. Looked at in ZooKeeper every 200 milliseconds, on a thread of its own.
	 */
	static BooleanSupplier runUntilStopped(CuratorFramework client) {
		AtomicBoolean stopped = new AtomicBoolean();
		long end = System.currentTimeMillis() + LIFETIME_MILLIS;
		Thread watching = new Thread(() -> {
			try {
				while (client.checkExists().forPath(STOP) == null && System.currentTimeMillis() < end) {
					Thread.sleep(200);
				}
			}
			catch (Exception ex) {
				ex.printStackTrace();
			}
			stopped.set(true);
		}, "stop-watch");
		watching.setDaemon(true);
		watching.start();
		return stopped::get;
	}

	void write() throws Exception {
		boolean entered = true;
		try {
			this.client.create().withMode(CreateMode.EPHEMERAL).forPath(INSIDE);
		}
		catch (KeeperException.NodeExistsException ex) {
			entered = false;
			overlap("write");
		}
		try {
			int value = Integer.parseInt(new String(this.client.getData().forPath(COUNTER), StandardCharsets.UTF_8));
			Thread.sleep(2);
			this.client.transaction()
				.forOperations(
						this.client.transactionOp()
							.setData()
							.forPath(COUNTER, Integer.toString(value + 1).getBytes(StandardCharsets.UTF_8)),
						this.client.transactionOp()
							.create()
							.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
							.forPath(WRITES + "/" + this.side + "-"));
		}
		finally {
			if (entered) {
				this.client.delete().forPath(INSIDE);
			}
		}
	}

	void read() throws Exception {
		if (this.client.checkExists().forPath(INSIDE) != null) {
			overlap("read");
		}
		Thread.sleep(2);
		if (this.client.checkExists().forPath(INSIDE) != null) {
			overlap("read");
		}
	}

	private void overlap(String kind) throws Exception {
		this.client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(OVERLAPS + "/" + this.side + "-" + kind + "-");
	}

}
