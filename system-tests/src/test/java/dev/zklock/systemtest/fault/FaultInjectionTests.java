package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import dev.zklock.systemtest.check.CheckReport;
import dev.zklock.systemtest.check.Failover;
import dev.zklock.systemtest.fault.ClusterObserver.Holder;
import dev.zklock.systemtest.fault.Faults.PausedHolder;
import dev.zklock.systemtest.fault.NemesisSchedule.Step;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import dev.zklock.test.IsolatedNetwork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.convert.DurationStyle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The short fault-injection run, part of every build: three processes of the workload
 * application on a three-server ZooKeeper ensemble, each fault alone, then a random schedule
 * of faults ({@value #SCHEDULE_PROPERTY}, 60 seconds by default; its seed is printed and can be
 * given in {@value FaultRun#SEED_PROPERTY}). After every fault the system must make progress
 * again and the checker must find no violation in the history so far. The figures go to
 * {@code target/system-tests/short-*}/summary.txt.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(300)
class FaultInjectionTests {

	static final String SCHEDULE_PROPERTY = "zklock.systemtest.schedule";

	private static final Duration LONGER_THAN_SESSION = Cluster.SESSION_TIMEOUT.plusSeconds(2);

	private static final Duration DOWNTIME = Duration.ofSeconds(1);

	private static final Duration ZOOKEEPER_DOWNTIME = Duration.ofSeconds(3);

	private final long seed = FaultRun.seed();

	private FaultRun run;

	private boolean finished;

	@BeforeAll
	void startCluster() {
		this.run = FaultRun.start("short", false);
	}

	@AfterAll
	void summarizeAndStop() {
		try {
			if (this.run != null && !this.finished) {
				this.run.summarize(this.seed);
			}
		}
		finally {
			if (this.run != null) {
				this.run.close();
			}
		}
	}

	@Test
	@Order(1)
	void killNineOfTheLeaderProcess() {
		AppProcess leader = faults().leaderApp();
		Fault fault = faults().killApp(leader, DOWNTIME);
		this.run.awaitRecovery(fault);
		CheckReport report = checkWithoutViolations();
		assertThat(failoversFrom(report, leader, fault)).as("leader failovers after the kill").isNotEmpty();
	}

	@Test
	@Order(2)
	void gracefulStopOfTheLeaderProcess() {
		AppProcess leader = faults().leaderApp();
		Fault fault = faults().stopApp(leader, DOWNTIME);
		this.run.awaitRecovery(fault);
		CheckReport report = checkWithoutViolations();
		assertThat(failoversFrom(report, leader, fault)).as("leader failovers after the stop")
			.isNotEmpty()
			.allSatisfy((failover) -> assertThat(failover.revokedAt()).as("revocation of the stopped leader").isNotNull());
	}

	@Test
	@Order(3)
	void pauseOfALockHolderPastItsSessionTimeout() {
		PausedHolder paused = faults().pauseHolder(List.of("counter"), LONGER_THAN_SESSION, new Random(this.seed));
		Fault fault = paused.fault();
		Holder holder = paused.holder();
		this.run.awaitRecovery(fault);
		checkWithoutViolations();
		// Another process got the lock once the paused holder's session had expired...
		Operation takeover = cluster().history()
			.operations()
			.stream()
			.filter((operation) -> operation.key().equals(holder.key()) && !operation.process().equals(holder.process())
					&& operation.token() != null && operation.token() > holder.token()
					&& operation.start() > fault.start() && operation.start() < fault.end())
			.findFirst()
			.orElseThrow(() -> new AssertionError("No other process got '" + holder.key() + "' while "
					+ holder.process() + " was paused"));
		// ...so the holder's own operation, unless its locked code had ended before, was refused
		// or reported lost. Its thread works on this key only, and has logged it once it logs a
		// later one.
		await().atMost(Duration.ofSeconds(30)).until(() -> cluster().history()
			.operations()
			.stream()
			.anyMatch((operation) -> operation.process().equals(holder.process())
					&& operation.key().equals(holder.key()) && operation.start() > fault.end()));
		assertThat(cluster().history().operations())
			.filteredOn((operation) -> operation.process().equals(holder.process())
					&& Objects.equals(operation.token(), holder.token()) && operation.end() > takeover.start())
			.extracting(Operation::outcome)
			.doesNotContain(Outcome.OK);
	}

	@Test
	@Order(4)
	void partitionOfTheLeaderProcessFromTheEnsemble() {
		AppProcess leader = faults().leaderApp();
		Fault fault = faults().partitionApp(leader, LONGER_THAN_SESSION);
		this.run.awaitRecovery(fault);
		CheckReport report = checkWithoutViolations();
		assertThat(failoversFrom(report, leader, fault)).as("leader failovers during the partition")
			.isNotEmpty()
			.allSatisfy((failover) -> {
				assertThat(failover.firstTickStart()).as("first tick of the new leader").isLessThan(fault.end());
				assertThat(failover.revokedAt()).as("revocation of the partitioned leader").isNotNull();
			});
	}

	@Test
	@Order(5)
	void killOfAZooKeeperFollower() {
		Fault fault = this.run.servers().killZooKeeper(false, ZOOKEEPER_DOWNTIME, new Random(this.seed));
		this.run.awaitRecovery(fault);
		checkWithoutViolations();
	}

	@Test
	@Order(6)
	void killOfTheZooKeeperLeader() {
		Fault fault = this.run.servers().killZooKeeper(true, ZOOKEEPER_DOWNTIME, new Random(this.seed));
		this.run.awaitRecovery(fault);
		checkWithoutViolations();
	}

	@Test
	@Order(7)
	void killNineOfTheLeaderProcessOverlappedByAKillOfTheZooKeeperLeader() {
		AppProcess leader = faults().leaderApp();
		Step zooKeeperLeaderKill = new Step(Nemesis.KILL_ZK_LEADER, true, "", ZOOKEEPER_DOWNTIME, Duration.ZERO,
				this.seed, null);
		Step step = new Step(Nemesis.KILL_APP, true, "", Duration.ofSeconds(2), Duration.ZERO, this.seed, null)
			.overlappedBy(zooKeeperLeaderKill, Duration.ofMillis(500));
		List<Fault> faults = this.run.apply(step);
		assertThat(faults).extracting(Fault::nemesis).containsExactly(Nemesis.KILL_APP, Nemesis.KILL_ZK_LEADER);
		assertThat(faults.get(1).start()).as("the second fault began while the first lasted")
			.isBetween(faults.get(0).start(), faults.get(0).end());
		faults.forEach(this.run::awaitRecovery);
		CheckReport report = checkWithoutViolations();
		assertThat(failoversFrom(report, leader, faults.get(0))).as("leader failovers after the kill").isNotEmpty();
	}

	@Test
	@Order(8)
	void partitionOfTheZooKeeperLeaderFromItsFollowers() {
		assumeThat(IsolatedNetwork.unavailableReason()).as("network namespaces for partitions inside the ensemble")
			.isEmpty();
		int leader = cluster().ensemble().leader().orElseThrow();
		Fault fault = this.run.servers()
			.partitionZooKeeper(ServerFaults.EnsemblePartition.LEADER_ALONE, LONGER_THAN_SESSION, new Random(this.seed));
		assertThat(fault.target()).isEqualTo("zk-" + leader);
		assertThat(fault.detail()).startsWith("the leader cut off from both followers");
		this.run.awaitRecovery(fault);
		assertThat(cluster().ensemble().leader()).as("a ZooKeeper leader after the partition").isPresent();
		assertThat(cluster().ensemble().leader().getAsInt()).as("the ZooKeeper leader after the partition")
			.isNotEqualTo(leader);
		checkWithoutViolations();
	}

	@Test
	@Order(9)
	void randomScheduleOfFaults() {
		Duration length = DurationStyle.detectAndParse(System.getProperty(SCHEDULE_PROPERTY, "60s"));
		List<Fault> faults = this.run.run(new NemesisSchedule(this.seed, cluster().apps().size(),
				cluster().network().isPresent()), length);
		CheckReport report = checkWithoutViolations();
		assertThat(faults).as("faults of the schedule").isNotEmpty();
		long kills = cluster().faults().stream().filter((fault) -> fault.nemesis() == Nemesis.KILL_APP).count();
		assertThat(report.damagedLines()).as("history lines damaged, at most one per kill").hasSizeLessThanOrEqualTo(
				(int) kills);
	}

	@Test
	@Order(100)
	void finalCheckOnceTheWorkloadHasStopped() {
		this.finished = true;
		RunSummary summary = this.run.finish(this.seed);
		assertThat(summary.report().violations()).as("invariant violations (seed %d); report:%n%s", this.seed, summary)
			.isEmpty();
		assertThat(summary.staleTicks()).as("ticks of an old leader after the new leader's first tick").isEmpty();
		assertThat(summary.commit()).as("commit of the run").doesNotStartWith("unknown");
	}

	private CheckReport checkWithoutViolations() {
		CheckReport report = cluster().check();
		assertThat(report.violations()).as("invariant violations (seed %d); report:%n%s", this.seed, report).isEmpty();
		return report;
	}

	private static List<Failover> failoversFrom(CheckReport report, AppProcess leader, Fault fault) {
		return report.failovers()
			.stream()
			.filter((failover) -> failover.fromProcess().equals(leader.name()) && failover.firstTickStart() > fault.start())
			.toList();
	}

	private Cluster cluster() {
		return this.run.cluster();
	}

	private Faults faults() {
		return this.run.faults();
	}

}
