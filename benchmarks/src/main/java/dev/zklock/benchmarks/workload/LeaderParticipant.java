package dev.zklock.benchmarks.workload;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Participation;

/**
 * A participant of workload 8 in a JVM of its own: joins a group's election and prints
 * {@code leader <epoch microseconds>} the moment it becomes the leader. It leaves the election
 * gracefully on {@code SIGTERM}, and ends by itself when its time is up.
 */
public final class LeaderParticipant {

	/** Printed once the participant has joined, with the negotiated session timeout. */
	public static final String JOINED = "joined session-timeout-ms=";

	/** Printed, with the wall-clock time in microseconds, when the participant becomes leader. */
	public static final String LEADER = "leader ";

	private LeaderParticipant() {
	}

	/**
	 * Take part in an election.
	 * @param args election library id, connect string, group, session timeout in milliseconds,
	 * most seconds to run
	 * @throws Exception when the library fails
	 */
	public static void main(String[] args) throws Exception {
		if (args.length != 5) {
			throw new IllegalArgumentException("Usage: LeaderParticipant <election> <connect-string> <group> "
					+ "<session-timeout-ms> <max-seconds>");
		}
		Election election = Election.of(args[0]);
		Duration maxTime = Duration.ofSeconds(Long.parseLong(args[4]));
		Participation participation = election.join(args[1], Duration.ofMillis(Long.parseLong(args[3])), args[2],
				() -> print(LEADER + epochMicros()));
		CountDownLatch left = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			participation.close();
			left.countDown();
		}, "leave-election"));
		print(JOINED + participation.sessionTimeoutMillis());
		if (!left.await(maxTime.toMillis(), TimeUnit.MILLISECONDS)) {
			System.exit(0);
		}
	}

	/**
	 * Return the wall-clock time in microseconds since the epoch, comparable between processes
	 * of one machine.
	 * @return the time
	 */
	static long epochMicros() {
		return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
	}

	private static void print(String line) {
		System.out.println(line);
		System.out.flush();
	}

}
