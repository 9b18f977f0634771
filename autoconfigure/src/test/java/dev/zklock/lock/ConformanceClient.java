package dev.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * One session of a conformance script: the port's requests, made as the lock core makes them,
 * each written to the transcript with its reply and with the watches of this session that fired
 * since the session's previous reply (so a transcript says which watches fired, and before which
 * reply).
 */
final class ConformanceClient {

	/**
	 * The data of every lock node created: passed through by both sides.
	 */
	private static final byte[] DATA = new NodeOwner("conformance@host:1", "Test#call", LockMode.EXCLUSIVE, null)
		.toBytes();

	/**
	 * Children in an order that does not depend on protected-mode ids: by sequence (or name),
	 * then by the whole name.
	 */
	private static final Comparator<String> BY_NAME = Comparator
		.comparing((String child) -> LockNodes.isLockNode(child) ? LockNodes.sequence(child) : child.matches(".*-n-\\d{10}") ? child.substring(child.length() - 10) : child)
		.thenComparing(Comparator.naturalOrder());

	private final String name;

	private final ZooKeeperPort port;

	private final ConformanceSide side;

	private final List<String> fired = new ArrayList<>();

	private final List<ZooKeeperPort.Connection> told = new ArrayList<>();

	private int replies;

	ConformanceClient(String name, ZooKeeperPort port, ConformanceSide side) {
		this.name = name;
		this.port = port;
		this.side = side;
		// Curator may or may not still tell CONNECTED to a listener added once connected (its
		// events go out on a thread of their own): not written down.
		port.addConnectionListener((state) -> {
			if (state != ZooKeeperPort.Connection.CONNECTED) {
				synchronized (this.told) {
					this.told.add(state);
				}
			}
		});
	}

	/**
	 * Wait until the client tells the given connection state (again), and write down every state
	 * it has told up to that one. (A state told after it, RECONNECTED right after LOST on a real
	 * client, is written down by the wait for it: when it comes is a matter of timing.)
	 */
	private int seen;

	void awaitTold(ZooKeeperPort.Connection state) {
		// States are taken in the order they were told: one told before this wait began, but
		// after the state awaited last, counts (LOST and RECONNECTED can come together).
		this.side.await(() -> {
			synchronized (this.told) {
				return this.told.subList(this.seen, this.told.size()).contains(state);
			}
		}, this.name + " told " + state);
		synchronized (this.told) {
			this.seen += this.told.subList(this.seen, this.told.size()).indexOf(state) + 1;
			this.side.transcript().add(this.name + " has been told " + this.told.subList(0, this.seen)).outcome("OK");
		}
	}

	String name() {
		return this.name;
	}

	ZooKeeperPort port() {
		return this.port;
	}

	/**
	 * Return a watch that notes, under the given label, that it fired.
	 */
	Runnable watch(String label) {
		return () -> {
			synchronized (this.fired) {
				this.fired.add(label);
			}
		};
	}

	Step<ZooKeeperPort.Created> createLockNode(String path) {
		return send("createLockNode " + path, (reply) -> this.port.createLockNode(path, DATA, reply),
				(created) -> created.path() + " owner=" + ConformanceTranscript.session(created.owner()));
	}

	/**
	 * The first-use transaction, its lock node named as the core names it.
	 */
	Step<ZooKeeperPort.KeyCreated> createKeyAndLockNode(String keyPath, LockMode mode) {
		return createKeyAndLockNode(keyPath, mode, LockNodeNames.READ_WRITE_LOCK);
	}

	/**
	 * The first-use transaction, its lock node named as the core names it with the given
	 * naming.
	 */
	Step<ZooKeeperPort.KeyCreated> createKeyAndLockNode(String keyPath, LockMode mode, LockNodeNames names) {
		String lockNodePath = LockNodes.path(keyPath,
				LockNodes.protectedName(this.port.newProtectedId(), mode, names));
		return send("createKeyAndLockNode " + keyPath + " " + LockNodes.marker(mode, names),
				(reply) -> this.port.createKeyAndLockNode(keyPath, lockNodePath, DATA, reply),
				(created) -> created.lockNodePath() + " zxid=" + ConformanceTranscript.zxid(created.zxid()));
	}

	/**
	 * The first-use transaction sent by a thread that waits for it: answered on the calling
	 * thread before the port's method returns, within the given time (none left: answered at once,
	 * the transaction sent all the same).
	 */
	Step<ZooKeeperPort.KeyCreated> createKeyAndLockNodeWaiting(String keyPath, LockMode mode, Duration within) {
		String lockNodePath = LockNodes.path(keyPath,
				LockNodes.protectedName(this.port.newProtectedId(), mode, LockNodeNames.READ_WRITE_LOCK));
		return answeredOnThisThread(send("createKeyAndLockNodeWaiting " + keyPath + " " + LockNodes.marker(mode, LockNodeNames.READ_WRITE_LOCK)
				+ " within " + within.toMillis() + " ms",
				(reply) -> this.port.createKeyAndLockNodeWaiting(keyPath, lockNodePath, DATA, answerBy(within), reply),
				(created) -> created.lockNodePath() + " zxid=" + ConformanceTranscript.zxid(created.zxid())));
	}

	/**
	 * The release's transaction sent by a thread that waits for it, as
	 * {@link #createKeyAndLockNodeWaiting}.
	 */
	Step<Void> deleteLockAndKeyNodeWaiting(String lockNodePath, String keyPath, Duration within) {
		return answeredOnThisThread(send("deleteLockAndKeyNodeWaiting " + lockNodePath + " " + keyPath + " within "
				+ within.toMillis() + " ms",
				(reply) -> this.port.deleteLockAndKeyNodeWaiting(lockNodePath, keyPath, answerBy(within), reply),
				(nothing) -> ""));
	}

	private long answerBy(Duration within) {
		return this.port.nanoTime() + within.toNanos();
	}

	private static <T> Step<T> answeredOnThisThread(Step<T> step) {
		if (!step.isDone()) {
			throw new AssertionError(step.request() + " returned before its answer");
		}
		return step;
	}

	/**
	 * An election node's create: the node named by its protected id, under a group node made
	 * as a container if missing, holding a participant id.
	 */
	Step<ZooKeeperPort.Created> createSequentialNode(String groupPath, String participantId) {
		String path = groupPath + "/_c_" + this.port.newProtectedId() + "-n-";
		return send("createSequentialNode " + groupPath + " " + participantId,
				(reply) -> this.port.createSequentialNode(path, participantId.getBytes(StandardCharsets.UTF_8), reply),
				(created) -> created.path() + " owner=" + ConformanceTranscript.session(created.owner()));
	}

	Step<byte[]> getData(String path) {
		return send("getData " + path, (reply) -> this.port.getData(path, reply),
				(data) -> new String(data, StandardCharsets.UTF_8));
	}

	/**
	 * Remove the client's watches on a node: written down as sent, as it has no reply.
	 */
	void removeWatches(String path) {
		this.side.transcript().add(this.name + " removeWatches " + path).outcome("sent");
		this.port.removeWatches(path);
	}

	Step<Void> createContainers(String path) {
		return send("createContainers " + path, (reply) -> this.port.createContainers(path, reply), (nothing) -> "");
	}

	Step<ZooKeeperPort.Children> getChildren(String path, @Nullable String watch) {
		return send("getChildren " + path + watchLabel(watch),
				(reply) -> this.port.getChildren(path, (watch != null) ? watch(watch) : null, reply),
				(children) -> children.names().stream().sorted(BY_NAME).toList() + " pzxid="
						+ ConformanceTranscript.zxid(children.pzxid()));
	}

	Step<ZooKeeperPort.NodeStat> exists(String path, @Nullable String watch) {
		return send("exists " + path + watchLabel(watch),
				(reply) -> this.port.exists(path, (watch != null) ? watch(watch) : null, reply),
				ConformanceClient::stat);
	}

	Step<Void> delete(String path) {
		return send("delete " + path, (reply) -> this.port.delete(path, reply), (nothing) -> "");
	}

	Step<Void> deleteLockAndKeyNode(String lockNodePath, String keyPath) {
		return send("deleteLockAndKeyNode " + lockNodePath + " " + keyPath,
				(reply) -> this.port.deleteLockAndKeyNode(lockNodePath, keyPath, reply), (nothing) -> "");
	}

	Step<ZooKeeperPort.NodeStat> touch(String path) {
		return send("touch " + path, (reply) -> this.port.touch(path, DATA, reply), ConformanceClient::stat);
	}

	Step<ZooKeeperPort.NodeStat> syncAndRead(String path) {
		return send("syncAndRead " + path, (reply) -> this.port.syncAndRead(path, reply), ConformanceClient::stat);
	}

	/**
	 * A read of the root, written down only for the watches that fired before its reply: every
	 * notification the server sent this session before now has arrived once it is answered.
	 */
	Step<ZooKeeperPort.NodeStat> settle() {
		return send("settles", (reply) -> this.port.exists("/", null, reply), (stat) -> "");
	}

	private static String watchLabel(@Nullable String watch) {
		return (watch != null) ? " watch " + watch : "";
	}

	private static String stat(ZooKeeperPort.NodeStat stat) {
		return "czxid=" + ConformanceTranscript.zxid(stat.czxid()) + " mzxid=" + ConformanceTranscript.zxid(stat.mzxid())
				+ " pzxid=" + ConformanceTranscript.zxid(stat.pzxid()) + " owner="
				+ ConformanceTranscript.session(stat.ephemeralOwner());
	}

	private <T> Step<T> send(String request, Request<T> sending, Function<T, String> reading) {
		ConformanceTranscript.Line line = this.side.transcript().add(this.name + " " + request);
		Step<T> step = new Step<>(this.side, request);
		sending.send((code, value) -> {
			String watches;
			int reply;
			synchronized (this.fired) {
				// Sorted: the deletes of one transaction (a session's end) fire in no set order.
				watches = this.fired.isEmpty() ? "" : " after watches " + this.fired.stream().sorted().toList();
				this.fired.clear();
				reply = ++this.replies;
			}
			String read = (code == Code.OK && value != null) ? reading.apply(value) : "";
			line.outcome(code + (read.isEmpty() ? "" : " " + read) + " (reply " + reply + watches + ")");
			step.done(code, value);
		});
		return step;
	}

	@FunctionalInterface
	private interface Request<T> {

		void send(ZooKeeperPort.Reply<T> reply);

	}

	/**
	 * A request sent; {@link #get()} waits for its reply.
	 */
	static final class Step<T> {

		private final ConformanceSide side;

		private final String request;

		private final CountDownLatch answered = new CountDownLatch(1);

		private volatile @Nullable Code code;

		private volatile @Nullable T value;

		Step(ConformanceSide side, String request) {
			this.side = side;
			this.request = request;
		}

		void done(Code code, @Nullable T value) {
			this.value = value;
			this.code = code;
			this.answered.countDown();
		}

		boolean isDone() {
			return this.answered.getCount() == 0;
		}

		String request() {
			return this.request;
		}

		/**
		 * Wait for the reply and return its value ({@code null} unless the code is OK).
		 */
		@Nullable T get() {
			this.side.await(this::isDone, this.request);
			return this.value;
		}

		/**
		 * Wait for the reply, which the script needs to be OK, and return its value.
		 */
		T ok() {
			T answer = get();
			if (this.code != Code.OK || answer == null) {
				throw new AssertionError(this.request + " answered " + this.code + ", the script needs OK");
			}
			return answer;
		}

	}

}
