package dev.zklock.benchmarks.workload;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Guard;
import dev.zklock.benchmarks.library.Participation;

/**
 * Workload 6: the cost of a leader-only call on the leader and on a non-leader, one thread. Two
 * participants of one group run in this JVM, each with its own session; the call goes to the
 * one whose role is measured. Like is compared with like: the check written inline
 * ({@code hasLeadership()} against {@code ZkLeadership.isLeader}), and a call through a Spring
 * proxy (a hand-written interceptor against {@code @ZkLeader}). The check reads local state: no
 * ZooKeeper traffic.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class LeaderCheckBenchmark {

	private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(30);

	/** The election library under test. */
	@Param({ "curator", "zkleader" })
	public String library = "zkleader";

	/** How the check is made: {@code inline} or {@code proxied}. */
	@Param({ "inline", "proxied" })
	public String guard = "proxied";

	/** The role of the participant called: {@code leader} or {@code non-leader}. */
	@Param({ "leader", "non-leader" })
	public String role = "non-leader";

	private Participation leader;

	private Participation other;

	private Runnable call = () -> {
	};

	private long work;

	private final Runnable countWork = () -> this.work++;

	@Setup(Level.Trial)
	public void elect() throws InterruptedException {
		Election election = Election.of(this.library);
		String group = "leader-check-" + System.nanoTime();
		String connectString = ZooKeeperTarget.connectString();
		this.leader = election.join(connectString, CuratorClients.SESSION_TIMEOUT, group, () -> {
		});
		await(this.leader, true, "the first participant to lead");
		this.other = election.join(connectString, CuratorClients.SESSION_TIMEOUT, group, () -> {
		});
		Participation called = switch (this.role) {
			case "leader" -> this.leader;
			case "non-leader" -> this.other;
			default -> throw new IllegalArgumentException("role must be leader or non-leader, not " + this.role);
		};
		this.call = called.leaderOnly(Guard.of(this.guard), this.countWork);
		if (!this.leader.isLeader() || this.other.isLeader()) {
			throw new IllegalStateException("The second participant took the leadership");
		}
	}

	@TearDown(Level.Trial)
	public void leave() {
		ZooKeeperTarget.closeAll(this.other, this.leader);
	}

	@Benchmark
	@Threads(1)
	public long call() {
		this.call.run();
		return this.work;
	}

	private static void await(Participation participation, boolean leader, String what) throws InterruptedException {
		long deadline = System.nanoTime() + ELECTION_TIMEOUT.toNanos();
		while (participation.isLeader() != leader) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Timed out waiting for " + what);
			}
			Thread.sleep(10);
		}
	}

}
