package dev.zklock.systemtest.shedlock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.zklock.systemtest.history.Operation;
import dev.zklock.test.ZooKeeperEnsemble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.convert.DurationStyle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with a {@code @SchedulerLock} job on ShedLock's ZooKeeper provider, and the
 * same application moved to zklock by its dependency (the zklock starter instead of the
 * provider) and one bean (its {@code LockProvider} bean removed: zklock's auto-configuration
 * provides one), each run as three processes on an ensemble of three ZooKeeper server
 * processes: each cron tick runs on one instance at most, and on one unless the run before it
 * still held its lock at the tick (the first runs of a JVM can take longer than the time left to
 * the next tick), before the move as after it. A killed
 * holder's lock is the difference: zklock's ends with the holder's session, ShedLock's
 * ZooKeeper provider keeps it until {@code lockAtMostFor}. The histories and logs go to
 * {@code target/system-tests/shedlock-*}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class SchedulerLockMigrationTests {

	private static final int INSTANCES = 3;

	/**
	 * The ZooKeeper servers' tick, every which they end expired sessions.
	 */
	private static final Duration SERVER_TICK = Duration.ofMillis(500);

	/**
	 * How many ticks a run watches.
	 */
	private static final int TICKS = 12;

	/**
	 * The session timeout of the applications' clients.
	 */
	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * The time a run takes when a holder is killed: long enough to kill it in the middle.
	 */
	private static final Duration SLOW_JOB_TIME = Duration.ofSeconds(3);

	private static final Duration JOB_TIME = Duration.ofMillis(100);

	private static final Duration LOCK_AT_MOST_FOR = DurationStyle.detectAndParse(ReportJob.LOCK_AT_MOST_FOR);

	private static final Duration LOCK_AT_LEAST_FOR = DurationStyle.detectAndParse(ReportJob.LOCK_AT_LEAST_FOR);

	private static final Duration POLL = Duration.ofMillis(50);

	private final List<ReportProcess> processes = new ArrayList<>();

	private Path runFolder;

	private ZooKeeperEnsemble ensemble;

	private Path folder;

	@BeforeAll
	void runFolder() {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		this.runFolder = Path.of("target", "system-tests", "shedlock-" + stamp).toAbsolutePath();
	}

	@AfterEach
	void stop() {
		try {
			this.processes.forEach(ReportProcess::close);
		}
		finally {
			this.processes.clear();
			if (this.ensemble != null) {
				this.ensemble.close();
				this.ensemble = null;
			}
		}
	}

	@Test
	void withShedLocksZooKeeperProviderEachTickRunsOnOneInstance(TestInfo test) throws Exception {
		eachTickRunsOnOneInstance(LockProviderSetup.SHEDLOCK_ZOOKEEPER, test);
	}

	@Test
	void movedToZkLockEachTickStillRunsOnOneInstance(TestInfo test) throws Exception {
		eachTickRunsOnOneInstance(LockProviderSetup.ZKLOCK, test);
	}

	@Test
	void movedToZkLockTheTicksAfterAKilledHoldersSessionEndsRunElsewhere(TestInfo test) throws Exception {
		KilledHolder killed = killHolderMidRun(LockProviderSetup.ZKLOCK, test);
		Duration bound = SESSION_TIMEOUT.plus(SERVER_TICK).plus(ScheduledRuns.PERIOD.multipliedBy(2));
		assertThat(killed.untilNextRun())
			.as("time from the kill to the next run elsewhere (the session's end, checked every server tick, "
					+ "then the next tick and one more), well before lockAtMostFor (%s); see %s", LOCK_AT_MOST_FOR,
					this.folder)
			.isLessThan(bound)
			.isLessThan(LOCK_AT_MOST_FOR);
	}

	@Test
	void withShedLocksZooKeeperProviderNoTickRunsUntilAKilledHoldersLockAtMostForHasPassed(TestInfo test)
			throws Exception {
		KilledHolder killed = killHolderMidRun(LockProviderSetup.SHEDLOCK_ZOOKEEPER, test);
		assertThat(Duration.ofMillis(killed.ticksToNextRun()))
			.as("time from the killed run's tick to the tick of the next run elsewhere; see %s", this.folder)
			.isGreaterThanOrEqualTo(LOCK_AT_MOST_FOR);
	}

	private void eachTickRunsOnOneInstance(LockProviderSetup setup, TestInfo test) throws Exception {
		startInstances(setup, JOB_TIME, test);
		long from = System.currentTimeMillis();
		long first = ScheduledRuns.tickOf(from) + ScheduledRuns.PERIOD.toMillis();
		await(TICKS + " ticks").atMost(ScheduledRuns.PERIOD.multipliedBy(TICKS * 4L))
			.pollInterval(POLL)
			.until(() -> runs().ticksFrom(first) >= TICKS);
		stopInstances();

		ScheduledRuns runs = runs();
		System.out.printf("[shedlock] %s: runs per instance %s from tick %d, latest start %d ms after its tick, "
				+ "ticks without a run %s%n", setup, runs.perProcess(), first,
				runs.maxLateness().toMillis(), runs.missedFrom(first));
		Map<Long, List<Operation>> twice = runs.ranMoreThanOnce();
		assertThat(twice).as("ticks run more than once (%s); see %s; runs by tick:%n%s", setup, this.folder, runs)
			.isEmpty();
		assertThat(runs.missedWhileFree(first, LOCK_AT_LEAST_FOR))
			.as("ticks without a run although the lock was free (%s); see %s; runs by tick:%n%s", setup, this.folder,
					runs)
			.isEmpty();
	}

	/**
	 * Start the instances with a slow job, kill the one running it in the middle of a run, and
	 * wait for the next run elsewhere.
	 */
	private KilledHolder killHolderMidRun(LockProviderSetup setup, TestInfo test) throws Exception {
		startInstances(setup, SLOW_JOB_TIME, test);
		long from = System.currentTimeMillis();
		Operation running = await("a run").atMost(ScheduledRuns.PERIOD.multipliedBy(10))
			.pollInterval(POLL)
			.until(() -> runs().runningSince(from), Optional::isPresent)
			.orElseThrow();
		ReportProcess holder = process(running.process());
		holder.kill();
		long killed = System.currentTimeMillis();
		Operation next = await("a run after the kill of " + holder)
			.atMost(LOCK_AT_MOST_FOR.plus(ScheduledRuns.PERIOD.multipliedBy(10)))
			.pollInterval(POLL)
			.until(() -> runs().firstStartAfter(killed, holder.name()), Optional::isPresent)
			.orElseThrow();
		stopInstances();

		ScheduledRuns runs = runs();
		KilledHolder result = new KilledHolder(running, killed, next);
		System.out.printf("[shedlock] %s: %s killed %d ms into its run of tick %d; next run %d ms after the kill, "
				+ "on %s, tick %d%n", setup, holder.name(), killed - running.start(),
				ScheduledRuns.tickOf(running.start()), result.untilNextRun().toMillis(), next.process(),
				ScheduledRuns.tickOf(next.start()));
		assertThat(runs.hasEnded(running)).as("whether the killed run ended (it should have been cut short)")
			.isFalse();
		assertThat(runs.ranMoreThanOnce()).as("ticks run more than once (%s); see %s; runs by tick:%n%s", setup,
				this.folder, runs)
			.isEmpty();
		return result;
	}

	private void startInstances(LockProviderSetup setup, Duration jobTime, TestInfo test) throws Exception {
		this.folder = this.runFolder.resolve(test.getTestMethod().orElseThrow().getName());
		Files.createDirectories(this.folder.resolve("history"));
		String classpath = setup.classpath();
		assertThat(LockProviderSetup.loads(classpath, setup.lockProvider().getName()))
			.as("%s on the classpath of %s", setup.lockProvider().getName(), setup)
			.isTrue();
		for (Class<?> leftOut : setup.leftOut()) {
			assertThat(LockProviderSetup.loads(classpath, leftOut.getName()))
				.as("%s on the classpath of %s", leftOut.getName(), setup)
				.isFalse();
		}
		this.ensemble = ZooKeeperEnsemble.builder().tickTime((int) SERVER_TICK.toMillis()).start();
		for (int i = 1; i <= INSTANCES; i++) {
			this.processes.add(ReportProcess.start("report-" + i, setup, this.ensemble.connectString(),
					SESSION_TIMEOUT, jobTime, this.folder));
		}
		for (ReportProcess process : this.processes) {
			assertThat(process.awaitReady()).as("LockProvider of %s", process).isEqualTo(setup.lockProvider().getName());
		}
	}

	private void stopInstances() {
		this.processes.forEach(ReportProcess::close);
	}

	private ReportProcess process(String name) {
		return this.processes.stream()
			.filter((process) -> process.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No process " + name));
	}

	private ScheduledRuns runs() {
		return ScheduledRuns.read(this.folder.resolve("history"));
	}

	/**
	 * A holder killed in the middle of a run, and the next run on another instance.
	 */
	private record KilledHolder(Operation run, long killed, Operation next) {

		Duration untilNextRun() {
			return Duration.ofMillis(this.next.start() - this.killed);
		}

		long ticksToNextRun() {
			return ScheduledRuns.tickOf(this.next.start()) - ScheduledRuns.tickOf(this.run.start());
		}

	}

}
