package dev.zklock.lock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * The lock core's port on the simulated server: a model of Curator on a ZooKeeper client, as far
 * as the core can tell. Requests travel over a link in order, are applied by the server when they
 * arrive, and their replies come back in order with the watch events; a link that breaks loses
 * what was in flight (a request not applied yet, or a reply of one applied). The client notices a
 * broken link after a while (Curator: SUSPENDED), retries its requests after reconnecting within
 * each request's retry budget (a protected create first looks for its node by its id, a
 * guaranteed delete never gives up, other writes may be applied twice), reconnects with its session
 * if the server still has it (RECONNECTED), or learns it expired (LOST, then a new session).
 * Curator's own expiry after a session timeout without a connection is modelled too. Every
 * callback runs as an event of the instance, frozen while the instance is paused; connection
 * listeners run a little later than ZooKeeper's events, as on Curator's own thread.
 */
final class SimClient implements ZooKeeperPort {

	private static final String NET = "net";

	private final SimWorld world;

	private final SimServer server;

	private final String name;

	private final SimFaults faults;

	private final long sessionTimeout;

	private final List<ConnectionListener> listeners = new ArrayList<>();

	private final List<Request> inflight = new ArrayList<>();

	private final ArrayDeque<Request> pending = new ArrayDeque<>();

	private final List<Runnable> missedWatches = new ArrayList<>();

	private final Map<String, List<ClientWatch>> watches = new HashMap<>();

	private final List<Pause> pauses = new ArrayList<>();

	private SimServer.@Nullable Session session;

	private @Nullable Link broken;

	private @Nullable Link link;

	private boolean connected;

	private int disconnects;

	private long lastListenerTime;

	private SimWorld.@Nullable Event expiry;

	private long downUntil;

	private boolean closed;

	private boolean quiet;

	private boolean stepsWhenWaitedOn;

	private boolean watchReset = true;

	private double dropAfterSequentialCreate;

	private double refusedAtOnce;

	private @Nullable SplittableRandom refusals;

	private int refused;

	private int waitedFor;

	private int waitsTimedOut;

	SimClient(SimWorld world, SimServer server, String name, SimFaults faults, long sessionTimeout) {
		this.world = world;
		this.server = server;
		this.name = name;
		this.faults = faults;
		this.sessionTimeout = sessionTimeout;
		openSession();
		this.connected = true;
	}

	String name() {
		return this.name;
	}

	/**
	 * Answer some requests made while the client is not connected at once, on the thread that
	 * makes them, with {@code CONNECTIONLOSS} and without sending them: Curator does so when it
	 * cannot reach the server within its connection timeout and its retries are spent, calling
	 * the request's callback inside the call that made it (the core's locks held). Guaranteed
	 * deletes are not refused: Curator retries them in the background. The draws come from a
	 * source of their own, so that the run's other draws stay those the seed gave before.
	 * @param chance the chance that such a request is refused
	 * @param seed the source of the draws
	 */
	SimClient refusesWhileDisconnected(double chance, long seed) {
		this.refusedAtOnce = chance;
		this.refusals = new SplittableRandom(seed);
		return this;
	}

	/**
	 * Return how many requests were refused at once ({@link #refusesWhileDisconnected}).
	 */
	int refused() {
		return this.refused;
	}

	/**
	 * Return how many transactions were sent by a thread that waited for them, and how many of
	 * those were answered {@code OPERATIONTIMEOUT} (the thread's time up before the reply).
	 */
	int[] waitedFor() {
		return new int[] { this.waitedFor, this.waitsTimedOut };
	}

	/**
	 * Say whether the client sets its session's watches again at a reconnect, as ZooKeeper's
	 * client does by default. Without ({@code zookeeper.disableAutoWatchReset=true}), a reconnect
	 * with the same session leaves every watch set before it gone, and events that did not reach
	 * the client before it are lost.
	 */
	SimClient watchReset(boolean reset) {
		this.watchReset = reset;
		return this;
	}

	/**
	 * Break the link right after the server applied a sequential create (an election node) with
	 * the given chance, beside the run's chance for every request: the create's outcome is then
	 * unknown to its caller, and the requests sent with it are resent after the reconnect.
	 */
	SimClient dropAfterSequentialCreates(double chance) {
		this.dropAfterSequentialCreate = chance;
		return this;
	}

	long sessionTimeout() {
		return this.sessionTimeout;
	}

	boolean isPaused() {
		return this.world.isPaused(this.name);
	}

	// Faults

	/**
	 * Break the link now; the client notices later and reconnects after the given time.
	 */
	void dropConnection(long downFor) {
		this.downUntil = Math.max(this.downUntil, this.world.now() + downFor);
		if (this.link != null && this.link.up) {
			breakLink(this.link, this.faults.noticeDelay(this.world, this.sessionTimeout));
		}
	}

	/**
	 * Freeze the whole instance: its event thread, timers and callers. The server hears nothing
	 * from it meanwhile.
	 */
	void pause(long length) {
		long start = this.world.now();
		long end = start + length;
		// When the process runs again, its threads wake in no set order: the pause monitor's
		// heartbeat may notice the pause before or after the event thread handles what arrived
		// meanwhile.
		this.world.pause(this.name, end + this.world.between(0, SimWorld.millis(2)));
		long detectedAt = end + this.world.between(0, SimWorld.millis(2));
		this.pauses.add(new Pause(start, end, detectedAt, length));
		Link current = this.link;
		if (current != null && current.up) {
			startExpiryClock();
			this.world.at(NET, end, this.name + " resumes", () -> resumed(current, length));
		}
	}

	private void resumed(Link paused, long length) {
		if (!paused.up) {
			return;
		}
		if (length > this.sessionTimeout * 2 / 3) {
			// The client's read timeout passed during the pause: it drops the connection as
			// soon as it runs again.
			breakLink(paused, this.world.between(0, SimWorld.millis(3)));
		}
		else {
			stopExpiryClock();
		}
	}

	/**
	 * Make the server answer late: every reply and watch event from now on comes at least the
	 * given time later (the link stays up, so the client does not notice if the delay is below
	 * its read timeout).
	 */
	void slowLink(long delay) {
		Link current = this.link;
		if (current != null && current.up) {
			current.lastDown = Math.max(current.lastDown, this.world.now() + delay);
		}
	}

	/**
	 * What the pause monitor would answer now.
	 */
	boolean mayHavePausedSince(long since) {
		long threshold = Math.max(SimWorld.millis(200), this.sessionTimeout / 10);
		long now = this.world.now();
		for (Pause pause : this.pauses) {
			if (pause.length <= threshold || pause.end > now) {
				continue;
			}
			if (now < pause.detectedAt || pause.detectedAt - since >= 0) {
				return true;
			}
		}
		return false;
	}

	/**
	 * End the faults: a link that is down comes back soon (its client still notices first).
	 */
	void stopFaults() {
		this.quiet = true;
		this.downUntil = this.world.now();
		if (!this.connected && this.link == null) {
			scheduleReconnect();
		}
	}

	/**
	 * Return when the instance's last pause ends.
	 */
	long pausedUntil() {
		long until = 0;
		for (Pause pause : this.pauses) {
			until = Math.max(until, pause.end);
		}
		return until;
	}

	/**
	 * Close the session, as a stopping application does.
	 */
	void close() {
		this.closed = true;
		SimServer.Session current = this.session;
		if (current != null) {
			this.server.expire(current);
		}
		if (this.link != null) {
			this.link.up = false;
		}
	}

	// The link

	private void breakLink(Link broken, long noticeAfter) {
		broken.up = false;
		startExpiryClock();
		this.world.schedule(this.name, noticeAfter, "notices the connection is gone", () -> noticed(broken));
	}

	private void startExpiryClock() {
		if (this.expiry != null) {
			return;
		}
		SimServer.Session current = this.session;
		if (current == null) {
			return;
		}
		this.expiry = this.world.schedule(NET, this.sessionTimeout, "session of " + this.name + " expires", () -> {
			this.expiry = null;
			sessionEnded(current);
		});
	}

	/**
	 * End the session at the server now, as its expiry does (or another client closing it): the
	 * client learns it when it reconnects.
	 */
	void expireSession() {
		SimServer.Session current = this.session;
		if (current != null) {
			sessionEnded(current);
		}
	}

	private void sessionEnded(SimServer.Session ended) {
		this.server.expire(ended);
		Link open = this.link;
		if (open != null && open.session == ended && open.up) {
			// The server closes the connection: the client sees it at once (once it runs).
			breakLink(open, this.world.between(0, SimWorld.millis(1)));
		}
	}

	private void stopExpiryClock() {
		if (this.expiry != null) {
			this.expiry.cancel();
			this.expiry = null;
		}
	}

	private void noticed(Link broken) {
		if (this.link != broken) {
			return;
		}
		this.link = null;
		this.broken = broken;
		this.connected = false;
		int disconnect = ++this.disconnects;
		List<Request> lost = new ArrayList<>(this.inflight);
		this.inflight.clear();
		for (Request request : lost) {
			lost(request, Code.CONNECTIONLOSS);
		}
		tell(Connection.SUSPENDED);
		// Curator's own expiry: a session timeout without a connection ends the session for the
		// client, whatever the server thinks.
		this.world.schedule(this.name, this.sessionTimeout, "gives its session up", () -> {
			if (!this.connected && this.disconnects == disconnect && this.session != null) {
				this.session = null;
				tell(Connection.LOST);
			}
		});
		scheduleReconnect();
	}

	private void scheduleReconnect() {
		long after = Math.max(this.downUntil - this.world.now(), 0) + this.world.between(SimWorld.millis(1),
				SimWorld.millis(20));
		this.world.schedule(this.name, after, "reconnects", this::reconnect);
	}

	private void reconnect() {
		if (this.closed || this.connected) {
			return;
		}
		if (this.world.now() < this.downUntil) {
			scheduleReconnect();
			return;
		}
		SimServer.Session current = this.session;
		if (current != null && this.server.isAlive(current.id)) {
			stopExpiryClock();
			this.link = new Link(current);
			this.connected = true;
			// ZooKeeper sets the session's watches again first thing on the new connection
			// (relative to the last zxid the client saw): the events still on their way over the
			// broken link when it was given up fire again, before any reply on the new one.
			Link old = this.broken;
			if (!this.watchReset) {
				this.server.dropWatches(current);
				this.watches.clear();
				this.missedWatches.clear();
				if (old != null) {
					old.watches.forEach((delivery) -> delivery.done = true);
					old.watches.clear();
				}
			}
			else if (old != null) {
				for (WatchDelivery delivery : old.watches) {
					if (!delivery.done) {
						delivery.done = true;
						this.missedWatches.add(delivery.task);
					}
				}
				old.watches.clear();
			}
			List<Runnable> missed = new ArrayList<>(this.missedWatches);
			this.missedWatches.clear();
			missed.forEach((watch) -> deliver(this.link, "missed watch", watch, true));
			tell(Connection.RECONNECTED);
		}
		else {
			stopExpiryClock();
			if (current != null) {
				this.session = null;
				tell(Connection.LOST);
			}
			this.missedWatches.clear();
			this.watches.clear();
			openSession();
			this.connected = true;
			tell(Connection.RECONNECTED);
		}
		// Requests of ZooKeeper's handle wait in its queue and go first, in order; Curator's
		// requests, retried or sent while the connection was down, go after them, in any order.
		List<Request> resend = new ArrayList<>(this.pending.size());
		List<Request> retried = new ArrayList<>(this.pending.size());
		for (Request request : this.pending) {
			(request.onHandle ? resend : retried).add(request);
		}
		this.pending.clear();
		if (retried.size() > 1 && this.world.chance(this.faults.reorderOnReconnect())) {
			Collections.shuffle(retried, new java.util.Random(this.world.random().nextLong()));
		}
		resend.addAll(retried);
		for (Request request : resend) {
			request.retrying = true;
			send(request);
		}
	}

	private void openSession() {
		SimServer.Session[] opened = new SimServer.Session[1];
		opened[0] = this.server.openSession((callback) -> watchFired(opened[0], callback));
		this.session = opened[0];
		this.link = new Link(opened[0]);
	}

	private void watchFired(SimServer.Session of, Runnable callback) {
		if (of != this.session) {
			return;
		}
		Link current = this.link;
		if (current != null && current.up && current.session == of) {
			deliver(current, "watch", callback, true);
		}
		else {
			this.missedWatches.add(callback);
		}
	}

	private void tell(Connection state) {
		long at = Math.max(this.world.now() + this.world.between(0, SimWorld.millis(2)), this.lastListenerTime + 1);
		this.lastListenerTime = at;
		this.world.at(this.name, at, "Curator tells " + state, () -> {
			for (ConnectionListener listener : List.copyOf(this.listeners)) {
				listener.changed(state);
			}
		});
	}

	// Requests

	private void send(Request request) {
		Link current = this.link;
		if (!this.connected || current == null || !current.up) {
			if (refusesAtOnce(request)) {
				this.world.note(this.name + ": refuses " + request.what + " at once, on the calling thread");
				this.refused++;
				request.answered = true;
				request.failed.accept(Code.CONNECTIONLOSS);
				return;
			}
			this.pending.add(request);
			return;
		}
		this.inflight.add(request);
		request.sentOn = current;
		long arrival = Math.max(this.world.now() + latency(), current.lastUp + 1);
		current.lastUp = arrival;
		this.world.at(NET, arrival, this.name + " -> " + request.what, () -> serve(request, current));
	}

	private boolean refusesAtOnce(Request request) {
		SplittableRandom source = this.refusals;
		return source != null && !this.quiet && !this.closed && !request.guaranteed && !request.retrying
				&& source.nextDouble() < this.refusedAtOnce;
	}

	private void serve(Request request, Link on) {
		if (!on.up) {
			return; // lost before the server applied it
		}
		SimServer.Result result = request.retrying ? request.retry.apply(on.session) : request.apply.apply(on.session);
		if (!this.quiet && (this.world.chance(this.faults.dropAfterApply()) || (request.sequentialCreate
				&& this.dropAfterSequentialCreate > 0 && this.world.chance(this.dropAfterSequentialCreate)))) {
			this.world.note(this.name + ": the link breaks after " + request.what + " was applied");
			this.downUntil = Math.max(this.downUntil, this.world.now() + this.faults.downtime(this.world, this.sessionTimeout));
			breakLink(on, this.faults.noticeDelay(this.world, this.sessionTimeout));
			return;
		}
		deliver(on, "reply to " + request.what + " " + result.code(), () -> received(request, on, result), false);
	}

	private void deliver(Link on, String what, Runnable task, boolean watch) {
		long arrival = Math.max(this.world.now() + latency(), on.lastDown + 1);
		on.lastDown = arrival;
		WatchDelivery delivery = watch ? new WatchDelivery(task) : null;
		if (delivery != null) {
			on.watches.add(delivery);
		}
		this.world.at(NET, arrival, "-> " + this.name + " " + what, () -> {
			if (delivery != null) {
				if (delivery.done) {
					return; // Fired again at the reconnect.
				}
				delivery.done = true;
				on.watches.remove(delivery);
			}
			if (on.up) {
				this.world.schedule(this.name, 0, what, task);
			}
			else if (watch && on.session == this.session) {
				// ZooKeeper sets the session's watches again at the reconnect and fires those
				// whose node changed meanwhile.
				this.missedWatches.add(task);
			}
		});
	}

	private void received(Request request, Link on, SimServer.Result result) {
		if (request.sentOn != on || request.answered) {
			return;
		}
		this.inflight.remove(request);
		request.answered = true;
		if (result.code() == Code.SESSIONEXPIRED || result.code() == Code.CONNECTIONLOSS) {
			request.answered = false;
			lost(request, result.code());
			return;
		}
		request.reply.accept(result);
	}

	private void lost(Request request, Code code) {
		if (this.closed) {
			return;
		}
		if (request.guaranteed || request.retries-- > 0) {
			request.retrying = true;
			this.pending.add(request);
			return;
		}
		request.answered = true;
		this.world.schedule(this.name, 0, "gives up " + request.what + " " + code, () -> request.failed.accept(code));
		if (request.onGiveUp != null) {
			request.onGiveUp.run();
		}
	}

	/**
	 * Return where in the core a request was made, for the trace.
	 */
	private String caller() {
		if (this.world.traceSize() < 1000) {
			return "";
		}
		return StackWalker.getInstance()
			.walk((frames) -> frames.filter((frame) -> !frame.getClassName().contains(".Sim")
					&& frame.getClassName().startsWith("dev.zklock.lock"))
				.limit(3)
				.map((frame) -> frame.getClassName().substring(16) + "." + frame.getMethodName() + ":" + frame.getLineNumber())
				.toList()
				.toString());
	}

	private long latency() {
		return this.quiet ? SimFaults.NONE.latency(this.world) : this.faults.latency(this.world);
	}

	private Request request(String what, Function<SimServer.Session, SimServer.Result> apply,
			Consumer<SimServer.Result> reply, Consumer<Code> failed) {
		Request request = new Request(what, apply, reply, failed, this.faults.retries(this.world));
		send(request);
		return request;
	}

	// The port

	// A node's data ({@link NodeOwner}) is taken and not kept: the core never reads it back.

	@Override
	public void createLockNode(String path, byte[] data, Reply<Created> reply) {
		String id = newProtectedId();
		String protectedPath = LockNodes.path(LockNodes.parent(path), LockNodes.protectedPrefix(id) + LockNodes.name(path));
		Request request = new Request("create " + LockNodes.name(protectedPath),
				(session) -> this.server.withData(this.server.create(session, protectedPath,
						SimServer.Kind.EPHEMERAL_SEQUENTIAL), data),
				(result) -> reply.done(result.code(), (result.code() == Code.OK)
						? new Created(result.path(), (result.stat() != null) ? result.stat().ephemeralOwner() : 0) : null),
				(code) -> reply.done(code, null), this.faults.retries(this.world));
		// Curator's protected mode: a retry first looks for the node by its id, and reports it
		// without its stat.
		request.retry = (session) -> {
			SimServer.Node parent = this.server.node(LockNodes.parent(path));
			if (parent != null) {
				for (String child : parent.children) {
					if (child.startsWith(LockNodes.protectedPrefix(id))) {
						return new SimServer.Result(Code.OK, LockNodes.path(parent.path, child), null, List.of());
					}
				}
			}
			return this.server.withData(this.server.create(session, protectedPath, SimServer.Kind.EPHEMERAL_SEQUENTIAL),
					data);
		};
		// When its retries are spent, Curator looks for the node in the background and deletes it
		// (FindAndDeleteProtectedNodeInBackground), until it has an answer.
		request.onGiveUp = () -> {
			Request cleanup = new Request("find and delete " + LockNodes.protectedPrefix(id), (session) -> {
				SimServer.Node parent = this.server.node(LockNodes.parent(path));
				if (parent != null) {
					for (String child : List.copyOf(parent.children)) {
						if (child.startsWith(LockNodes.protectedPrefix(id))) {
							return this.server.delete(session, LockNodes.path(parent.path, child));
						}
					}
				}
				return SimServer.Result.of(Code.OK);
			}, (result) -> {
			}, (code) -> {
			}, 0);
			cleanup.guaranteed = true;
			send(cleanup);
		};
		send(request);
	}

	@Override
	public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
		send(keyAndLockNode("multi " + LockNodes.name(keyPath), keyPath, lockNodePath, reply,
				this.faults.retries(this.world)));
	}

	private Request keyAndLockNode(String what, String keyPath, String lockNodePath, Reply<KeyCreated> reply,
			int retries) {
		return new Request(what, (session) -> this.server.createKeyAndLockNode(session, keyPath, lockNodePath),
				(result) -> reply.done(result.code(),
						(result.code() == Code.OK) ? new KeyCreated(result.path(), result.stat().czxid()) : null),
				(code) -> reply.done(code, null), retries);
	}

	/**
	 * A create without Curator's protected mode: each retry creates again (a retry of a create
	 * that was applied makes a second node), and a create whose retries are spent is left to
	 * the caller, which finds its nodes by the id in their name.
	 */
	@Override
	public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
		Request request = request("create " + LockNodes.name(path), (session) -> {
			String parent = LockNodes.parent(path);
			for (String at : missingParents(parent)) {
				this.server.create(session, at, SimServer.Kind.CONTAINER);
			}
			return this.server.withData(this.server.create(session, path, SimServer.Kind.EPHEMERAL_SEQUENTIAL), data);
		}, (result) -> reply.done(result.code(), (result.code() == Code.OK)
				? new Created(result.path(), (result.stat() != null) ? result.stat().ephemeralOwner() : 0) : null),
				(code) -> reply.done(code, null));
		request.sequentialCreate = true;
	}

	private List<String> missingParents(String path) {
		List<String> missing = new ArrayList<>();
		for (String at = path; !at.equals("/") && this.server.node(at) == null; at = LockNodes.parent(at)) {
			missing.add(0, at);
		}
		return missing;
	}

	@Override
	public void createContainers(String path, Reply<Void> reply) {
		// Curator's creatingParentContainersIfNeeded: the create first (a failed write, a zxid of
		// its own, when the node or its parent is missing), then on NONODE the missing parents,
		// each after a read that found it missing, and the create again.
		request("create containers " + path, (session) -> {
			SimServer.Result first = this.server.create(session, path, SimServer.Kind.CONTAINER);
			if (first.code() != Code.NONODE) {
				return first;
			}
			List<String> missing = new ArrayList<>();
			for (String at = LockNodes.parent(path); !at.equals("/") && this.server.node(at) == null;
					at = LockNodes.parent(at)) {
				missing.add(0, at);
			}
			for (String at : missing) {
				this.server.create(session, at, SimServer.Kind.CONTAINER);
			}
			return this.server.create(session, path, SimServer.Kind.CONTAINER);
		}, (result) -> reply.done(result.code(), null), (code) -> reply.done(code, null));
	}

	@Override
	public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
		Runnable watching = watched(path, watch);
		request("children " + path, (session) -> this.server.getChildren(session, path, watching),
				(result) -> reply.done(result.code(),
						(result.code() == Code.OK) ? new Children(result.children(), result.stat().pzxid()) : null),
				(code) -> reply.done(code, null));
	}

	@Override
	public void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply) {
		Runnable watching = watched(path, watch);
		request("exists " + LockNodes.name(path), (session) -> this.server.exists(session, path, watching),
				(result) -> reply.done(result.code(), result.stat()), (code) -> reply.done(code, null));
	}

	@Override
	public void getData(String path, Reply<byte[]> reply) {
		byte[][] read = new byte[1][];
		request("getData " + LockNodes.name(path), (session) -> {
			SimServer.Result result = this.server.exists(session, path, null);
			SimServer.Node node = this.server.node(path);
			read[0] = (node != null) ? node.data : null;
			return result;
		}, (result) -> reply.done(result.code(), (result.code() == Code.OK) ? read[0] : null),
				(code) -> reply.done(code, null));
	}

	/**
	 * Remove the client's watches on a node at once (Curator's {@code locally()}), and the
	 * server's when the request gets there.
	 */
	@Override
	public void removeWatches(String path) {
		List<ClientWatch> removed = this.watches.remove(path);
		if (removed != null) {
			removed.forEach((watch) -> watch.removed = true);
		}
		Request request = new Request("remove watches " + LockNodes.name(path),
				(session) -> this.server.removeWatches(session, path), (result) -> {
				}, (code) -> {
				}, 0);
		send(request);
	}

	/**
	 * Return the paths under a prefix on which this client still has watches that would run.
	 */
	public List<String> watchedUnder(String prefix) {
		return this.watches.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().startsWith(prefix) && !entry.getValue().isEmpty())
			.map(Map.Entry::getKey)
			.sorted()
			.toList();
	}

	private @Nullable Runnable watched(String path, @Nullable Runnable watch) {
		if (watch == null) {
			return null;
		}
		ClientWatch watching = new ClientWatch(path, watch);
		this.watches.computeIfAbsent(path, (p) -> new ArrayList<>()).add(watching);
		return watching;
	}

	@Override
	public void delete(String path, @Nullable Reply<Void> reply) {
		Request request = new Request("delete " + LockNodes.name(path) + caller(), (session) -> this.server.delete(session, path),
				(result) -> {
					if (reply != null) {
						reply.done(result.code(), null);
					}
				}, (code) -> {
					if (reply != null) {
						reply.done(code, null);
					}
				}, 0);
		request.guaranteed = true;
		send(request);
	}

	@Override
	public void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply) {
		send(lockAndKeyNode("multi delete " + LockNodes.name(lockNodePath) + caller(), lockNodePath, keyPath, reply,
				this.faults.retries(this.world)));
	}

	private Request lockAndKeyNode(String what, String lockNodePath, String keyPath, Reply<Void> reply, int retries) {
		return new Request(what, (session) -> this.server.deleteLockAndKeyNode(session, lockNodePath, keyPath),
				(result) -> reply.done(result.code(), null), (code) -> reply.done(code, null), retries);
	}

	/**
	 * The first-use transaction as ZooKeeper's handle sends it for a waiting thread: never sent
	 * again after the connection drops (the background one is retried here, a superset of what
	 * the handle does), answered on the simulated thread that sent it by {@code answerBy}, or
	 * {@code OPERATIONTIMEOUT} with the transaction still in flight.
	 */
	@Override
	public void createKeyAndLockNodeWaiting(String keyPath, String lockNodePath, byte[] data, long answerBy,
			Reply<KeyCreated> reply) {
		ZooKeeperPort.sendAndWait(this, (answer) -> sendOnHandle(keyAndLockNode(
				"multi " + LockNodes.name(keyPath) + " " + LockNodes.name(lockNodePath) + " (waited for)", keyPath,
				lockNodePath, answer, 0)), answerBy, counted(reply));
	}

	/**
	 * The release's transaction for a waiting thread, as {@link #createKeyAndLockNodeWaiting}.
	 */
	@Override
	public void deleteLockAndKeyNodeWaiting(String lockNodePath, String keyPath, long answerBy, Reply<Void> reply) {
		ZooKeeperPort.sendAndWait(this, (answer) -> sendOnHandle(lockAndKeyNode(
				"multi delete " + LockNodes.name(lockNodePath) + " (waited for)" + caller(), lockNodePath, keyPath,
				answer, 0)), answerBy, counted(reply));
	}

	private void sendOnHandle(Request request) {
		request.onHandle = true;
		send(request);
	}

	/**
	 * Count a transaction waited for, and its answer if the wait ended first.
	 */
	private <T> Reply<T> counted(Reply<T> reply) {
		this.waitedFor++;
		return (code, value) -> {
			if (code == Code.OPERATIONTIMEOUT) {
				this.waitsTimedOut++;
			}
			reply.done(code, value);
		};
	}

	@Override
	public void touch(String path, byte[] data, Reply<NodeStat> reply) {
		request("setData " + LockNodes.name(path), (session) -> this.server.setData(session, path),
				(result) -> reply.done(result.code(), result.stat()), (code) -> reply.done(code, null));
	}

	@Override
	public void syncAndRead(String path, Reply<NodeStat> reply) {
		request("sync", (session) -> SimServer.Result.of(Code.OK), (synced) -> exists(path, null, reply),
				(code) -> reply.done(code, null));
	}

	@Override
	public long sessionId() {
		SimServer.Session current = this.session;
		return (current != null) ? current.id : 0;
	}

	@Override
	public boolean isConnected() {
		return this.connected;
	}

	/**
	 * Wait on a simulated thread until Curator would say the client is connected again.
	 */
	@Override
	public boolean awaitConnected(long nanos) throws InterruptedException {
		if (this.connected) {
			return true;
		}
		CompletableFuture<Boolean> back = new CompletableFuture<>();
		ConnectionListener listener = (state) -> {
			if (state == Connection.CONNECTED || state == Connection.RECONNECTED) {
				back.complete(true);
			}
		};
		this.listeners.add(listener);
		try {
			return await(back, (nanos < 0) ? Long.MAX_VALUE : nanos);
		}
		catch (TimeoutException ex) {
			return this.connected;
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.listeners.remove(listener);
		}
	}

	/**
	 * Wait on a simulated thread ({@link SimThread}); the simulator's own thread never waits.
	 */
	@Override
	public <T> T await(CompletableFuture<T> answer, long nanos)
			throws InterruptedException, ExecutionException, TimeoutException {
		SimThread thread = SimThread.current();
		if (thread == null) {
			if (answer.isDone()) {
				return answer.get();
			}
			if (this.stepsWhenWaitedOn) {
				return stepUntil(answer, nanos);
			}
			throw new IllegalStateException("The simulator's own thread waited for an answer");
		}
		return thread.await(answer, nanos);
	}

	/**
	 * Let a thread outside the simulation (a conformance script's) wait for an answer: it steps
	 * the world itself until the answer comes or the time is up.
	 */
	SimClient stepWhenWaitedOn() {
		this.stepsWhenWaitedOn = true;
		return this;
	}

	private <T> T stepUntil(CompletableFuture<T> answer, long nanos)
			throws InterruptedException, ExecutionException, TimeoutException {
		long deadline = (nanos > Long.MAX_VALUE - this.world.now()) ? Long.MAX_VALUE : this.world.now() + nanos;
		while (!answer.isDone()) {
			if (this.world.now() >= deadline || !this.world.step()) {
				throw new TimeoutException();
			}
		}
		return answer.get();
	}

	@Override
	public String connectString() {
		return "simulated";
	}

	@Override
	public void addConnectionListener(ConnectionListener listener) {
		this.listeners.add(listener);
	}

	@Override
	public void removeConnectionListener(ConnectionListener listener) {
		this.listeners.remove(listener);
	}

	@Override
	public long nanoTime() {
		return this.world.now();
	}

	@Override
	public Timer schedule(Runnable task, long nanos) {
		SimWorld.Event event = this.world.schedule(this.name, nanos, "timer", task);
		return event::cancel;
	}

	@Override
	public void execute(Runnable task) {
		this.world.schedule(this.name, this.world.between(0, 50_000), "scheduler task", task);
	}

	@Override
	public String newProtectedId() {
		return new UUID(this.world.random().nextLong(), this.world.random().nextLong()).toString();
	}

	/**
	 * One TCP connection of the session: requests go up and replies come down, each way in order.
	 */
	private static final class Link {

		final SimServer.Session session;

		boolean up = true;

		long lastUp;

		long lastDown;

		final List<WatchDelivery> watches = new ArrayList<>();

		Link(SimServer.Session session) {
			this.session = session;
		}

	}

	/**
	 * A watch event on its way to the client.
	 */
	private static final class WatchDelivery {

		final Runnable task;

		boolean done;

		WatchDelivery(Runnable task) {
			this.task = task;
		}

	}

	private static final class Request {

		final String what;

		final Function<SimServer.Session, SimServer.Result> apply;

		Function<SimServer.Session, SimServer.Result> retry;

		@Nullable Runnable onGiveUp;

		final Consumer<SimServer.Result> reply;

		final Consumer<Code> failed;

		int retries;

		boolean guaranteed;

		boolean sequentialCreate;

		boolean retrying;

		/**
		 * Sent by ZooKeeper's handle, not Curator: never sent again once sent, and kept in
		 * the handle's queue, in order, while the connection is down.
		 */
		boolean onHandle;

		boolean answered;

		@Nullable Link sentOn;

		Request(String what, Function<SimServer.Session, SimServer.Result> apply, Consumer<SimServer.Result> reply,
				Consumer<Code> failed, int retries) {
			this.what = what;
			this.apply = apply;
			this.retry = apply;
			this.reply = reply;
			this.failed = failed;
			this.retries = retries;
		}

	}

	private record Pause(long start, long end, long detectedAt, long length) {
	}

	/**
	 * A watch as the client keeps it: run once, unless removed first.
	 */
	private final class ClientWatch implements Runnable {

		private final String path;

		private final Runnable callback;

		private boolean removed;

		ClientWatch(String path, Runnable callback) {
			this.path = path;
			this.callback = callback;
		}

		@Override
		public void run() {
			if (this.removed) {
				return;
			}
			this.removed = true;
			List<ClientWatch> left = SimClient.this.watches.get(this.path);
			if (left != null) {
				left.remove(this);
				if (left.isEmpty()) {
					SimClient.this.watches.remove(this.path);
				}
			}
			this.callback.run();
		}

	}

}
