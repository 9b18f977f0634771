package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The promises made to a call (not to a grant) that the simulator judges, beside the grants'
 * exclusion, honesty and token order: what {@link SimRun} sees of a call when its work starts,
 * when it is answered and when its work ends.
 * <ul>
 * <li><b>starts valid</b>: a call's work starts only while every grant it holds is valid
 * (docs/lock-core.md, "Several keys" and "Validity and pauses"): the core does not call the grant
 * lost or in doubt, and its node is on the server, owned by a live session. What changed for the
 * instance after the core handed the work to the executor (a connection event, a pause, a forced
 * release, its session's expiry) is not the core's to see.</li>
 * <li><b>on the executor</b>: a call's answer comes on the executor it gave, never on a ZooKeeper
 * thread (the guide, "Threads").</li>
 * <li><b>wait time</b>: a call that waits for a time is answered (granted, timed out, or told that
 * ZooKeeper is unreachable) no later than its wait time, or the time one ZooKeeper request may
 * take ({@link Deadline#MIN_REQUEST_NANOS}) when that is longer; not judged when the instance
 * paused (its timers froze, and a grant after a pause is confirmed with the server).</li>
 * <li><b>lost reported</b>: a call whose grant is lost when its work ends (the core says so, or its
 * node or session is gone on the server) ends with {@code LockLostException}.</li>
 * <li><b>first come first served</b>: of two calls of one instance on one key, the one that asked
 * first is granted first ({@link ServiceOrder}).</li>
 * </ul>
 */
final class SimCallChecks {

	/**
	 * What may pass between a call's deadline and its answer: the timer's event and the executor.
	 */
	static final long ANSWER_SLACK = SimWorld.millis(20);

	/**
	 * How long after a pause (and a slow server after it) an answer is not held to the wait time:
	 * the confirmation of a grant, a sync and a read of up to 5 seconds each.
	 */
	static final long AFTER_PAUSE = SimWorld.millis(11_000);

	private SimCallChecks() {
	}

	/**
	 * Return why one of the grants is not valid, or {@code null} if all are.
	 */
	static @Nullable String notValid(SimServer server, List<Hold> holds) {
		for (Hold hold : holds) {
			ActiveLock lock = hold.lock();
			String why = (lock.state() != ActiveLock.State.VALID)
					? "is " + lock.state() + " (" + lock.reason() + ")" : goneOnServer(server, hold);
			if (why != null) {
				return "its grant of " + hold.key() + " on node " + LockNodes.name(lock.node().path()) + " " + why;
			}
		}
		return null;
	}

	/**
	 * Return why one of the grants is lost for good, by the core's account or the server's, or
	 * {@code null}.
	 */
	static @Nullable String lost(SimServer server, List<Hold> holds) {
		for (Hold hold : holds) {
			ActiveLock lock = hold.lock();
			String why = (lock.state() == ActiveLock.State.LOST) ? "is lost (" + lock.reason() + ")"
					: goneOnServer(server, hold);
			if (why != null) {
				return "its grant of " + hold.key() + " on node " + LockNodes.name(lock.node().path()) + " " + why;
			}
		}
		return null;
	}

	private static @Nullable String goneOnServer(SimServer server, Hold hold) {
		LockNode node = hold.lock().node();
		SimServer.Node onServer = server.node(node.path());
		if (onServer == null) {
			return "has no node on the server";
		}
		if (onServer.owner != node.sessionId() || !server.isAlive(node.sessionId())) {
			return "has a node whose session ended";
		}
		return null;
	}

	/**
	 * Return the latest time a call that waits for the given time may be answered, or
	 * {@link Long#MAX_VALUE} for a call that waits forever.
	 */
	static long answerBy(long askedAt, Duration waitTime) {
		if (waitTime.isNegative()) {
			return Long.MAX_VALUE;
		}
		return askedAt + Math.max(waitTime.toNanos(), Deadline.MIN_REQUEST_NANOS) + ANSWER_SLACK;
	}

	/**
	 * The grants of one instance's calls on one key each, in the core's time, to judge that the
	 * instance serves them first come, first served (docs/lock-core.md, promise 5; the guide,
	 * "Shared and exclusive"). A call is judged only when nothing disturbed its instance while it
	 * waited, and its instance never paused: a grant found not valid (after a pause, in doubt, or
	 * lost) is given back and asked for again, behind the calls that asked meanwhile. Calls on
	 * several keys are not judged: they ask for a later key only once they hold the earlier ones.
	 */
	static final class ServiceOrder {

		private final Map<String, List<Served>> byKey = new HashMap<>();

		/**
		 * Note a call's grant.
		 * @param order the call's place among all the calls that asked
		 * @param grantedAt when the core granted it
		 * @param judged whether the call waited undisturbed
		 * @return how the order was broken, or {@code null}
		 */
		@Nullable String served(String key, String call, long order, long grantedAt, boolean judged) {
			List<Served> served = this.byKey.computeIfAbsent(key, (k) -> new ArrayList<>());
			String broken = null;
			for (Served other : served) {
				if (judged && order < other.order && grantedAt > other.grantedAt) {
					broken = call + " asked before " + other.call + " but was granted after it";
				}
				else if (other.judged && other.order < order && other.grantedAt > grantedAt) {
					broken = other.call + " asked before " + call + " but was granted after it";
				}
			}
			served.add(new Served(call, order, grantedAt, judged));
			return broken;
		}

		private record Served(String call, long order, long grantedAt, boolean judged) {
		}

	}

	/**
	 * What the simulator noted of an instance when the core handed a task to the call's
	 * executor.
	 * @param at when
	 * @param disturbances how many connection events, pauses and forced releases the instance had
	 * seen
	 * @param session the instance's session
	 * @param alive whether the server had that session
	 */
	record Handover(long at, int disturbances, long session, boolean alive) {

		/**
		 * Return whether anything that may take a grant away happened to the instance since.
		 */
		boolean disturbedSince(int disturbancesNow, SimServer server) {
			return disturbancesNow != this.disturbances || (this.alive && !server.isAlive(this.session));
		}

	}

}
