package dev.zklock.benchmarks.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.Election;
import dev.zklock.test.JavaProcess;

/**
 * Workload 8: how long a group is without a leader when its leader's JVM ends, gracefully and
 * with {@code kill -9}. Each participant is a {@link LeaderParticipant} JVM. The time runs from
 * just before the signal to the moment the next participant's listener learns it leads; both
 * are read from the wall clock of this one machine. After a kill, the next participant can only
 * lead once the server expires the dead leader's session: the session timeout, rounded up to
 * the server's tick. When that happens depends on when the dead leader last pinged; so that no
 * library is favoured by when its participants happen to start, each kill waits a random time
 * of up to {@link #KILL_SPREAD} of the session timeout, more than one ping interval (a third),
 * after both participants have joined.
 */
public final class LeaderFailover {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration POLL = Duration.ofMillis(10);

	private static final Duration MAX_PARTICIPANT_LIFE = Duration.ofHours(1);

	/** The longest random wait before a kill, as a fraction of the session timeout. */
	static final double KILL_SPREAD = 0.5;

	private static final Pattern LEADER = Pattern.compile("^" + LeaderParticipant.LEADER + "(\\d+)$",
			Pattern.MULTILINE);

	private static final Pattern SESSION_TIMEOUT = Pattern.compile("^" + LeaderParticipant.JOINED + "(\\d+)$",
			Pattern.MULTILINE);

	/**
	 * How the leader's JVM ends.
	 */
	public enum Shutdown {

		/** {@code SIGTERM}: shutdown hooks run and the participant leaves the election. */
		GRACEFUL,

		/** {@code SIGKILL}: the process is gone at once, its session lingers until it expires. */
		KILL

	}

	/**
	 * The failover times of one library and one kind of shutdown.
	 *
	 * @param election the library
	 * @param shutdown how the leader ended
	 * @param millis the failover times, in milliseconds
	 * @param sessionTimeoutMillis the session timeout the participants negotiated
	 */
	public record Result(Election election, Shutdown shutdown, List<Double> millis, int sessionTimeoutMillis) {

	}

	private LeaderFailover() {
	}

	/**
	 * Measure failovers of one library, first graceful ones, then kills.
	 * @param connectString the ZooKeeper servers
	 * @param election the library
	 * @param sessionTimeout the session timeout participants ask for
	 * @param repetitions the failovers of each kind
	 * @param jvmArgs the JVM options of the participants
	 * @return one result per kind of shutdown
	 * @throws Exception when a participant or ZooKeeper fails
	 */
	public static List<Result> measure(String connectString, Election election, Duration sessionTimeout,
			int repetitions, List<String> jvmArgs) throws Exception {
		String group = "failover-" + System.currentTimeMillis();
		List<Result> results = new ArrayList<>();
		try (CuratorFramework observer = CuratorClients.connect(connectString)) {
			Participants participants = new Participants(connectString, election, group, sessionTimeout, jvmArgs);
			JavaProcess leader = participants.start();
			try {
				leader.awaitOutput(LEADER.pattern(), START_TIMEOUT);
				for (Shutdown shutdown : Shutdown.values()) {
					List<Double> millis = new ArrayList<>();
					for (int i = 0; i < repetitions; i++) {
						JavaProcess next = participants.start();
						try {
							awaitParticipants(observer, election.path(group), 2);
							if (shutdown == Shutdown.KILL) {
								Thread.sleep(ThreadLocalRandom.current()
									.nextLong((long) (sessionTimeout.toMillis() * KILL_SPREAD) + 1));
							}
							millis.add(failover(leader, next, shutdown, sessionTimeout));
						}
						finally {
							leader.close();
							leader = next;
						}
					}
					results.add(new Result(election, shutdown, millis, sessionTimeoutMillis(leader)));
				}
			}
			finally {
				leader.close();
			}
		}
		return results;
	}

	private static double failover(JavaProcess leader, JavaProcess next, Shutdown shutdown, Duration sessionTimeout) {
		long start = LeaderParticipant.epochMicros();
		switch (shutdown) {
			case GRACEFUL -> leader.stop(START_TIMEOUT);
			case KILL -> leader.kill();
		}
		next.awaitOutput(LEADER.pattern(), sessionTimeout.multipliedBy(3).plus(START_TIMEOUT));
		Matcher matcher = LEADER.matcher(next.outputText());
		if (!matcher.find()) {
			throw new IllegalStateException(next + " printed no leader line");
		}
		return (Long.parseLong(matcher.group(1)) - start) / 1000.0;
	}

	private static int sessionTimeoutMillis(JavaProcess participant) {
		Matcher matcher = SESSION_TIMEOUT.matcher(participant.outputText());
		return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
	}

	private static void awaitParticipants(CuratorFramework client, String path, int count) throws Exception {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (participants(client, path) < count) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Fewer than " + count + " participants under " + path + " after "
						+ START_TIMEOUT);
			}
			Thread.sleep(POLL.toMillis());
		}
	}

	private static int participants(CuratorFramework client, String path) throws Exception {
		try {
			return client.getChildren().forPath(path).size();
		}
		catch (KeeperException.NoNodeException ex) {
			return 0;
		}
	}

	/**
	 * Starts participant JVMs of one group.
	 */
	private record Participants(String connectString, Election election, String group, Duration sessionTimeout,
			List<String> jvmArgs) {

		JavaProcess start() {
			JavaProcess participant = JavaProcess.builder(LeaderParticipant.class)
				.name("participant-" + this.election.id())
				.jvmArgs(this.jvmArgs.toArray(String[]::new))
				.args(this.election.id(), this.connectString, this.group, Long.toString(this.sessionTimeout.toMillis()),
						Long.toString(MAX_PARTICIPANT_LIFE.toSeconds()))
				.start();
			try {
				participant.awaitOutput("^" + LeaderParticipant.JOINED, START_TIMEOUT);
			}
			catch (RuntimeException ex) {
				participant.close();
				throw ex;
			}
			return participant;
		}

	}

}
