package dev.zklock.systemtest.components;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import dev.zklock.systemtest.check.CheckReport;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.test.ZooKeeperEnsemble;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import static dev.zklock.systemtest.components.ComponentRuns.endNanos;
import static dev.zklock.systemtest.components.ComponentRuns.startNanos;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader-only components seen from outside: two processes of the {@link ComponentApplication},
 * each a Spring Boot application using the starter with four {@code @ZkLeaderComponent} groups,
 * on a ZooKeeper ensemble of three server processes. What runs is what the components logged
 * from their own {@code start()} to the return of their {@code stop()}; the checker finds any
 * interval in which both processes ran the component of one group. The histories and logs go to
 * {@code target/system-tests/components-*}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(150)
class LeaderComponentLifecycleTests {

	/**
	 * How much earlier than the history's own record of SUSPENDED a stop it caused may begin:
	 * Curator tells its connection listeners one after the other.
	 */
	private static final Duration LISTENERS_BEFORE_THE_HISTORY = Duration.ofMillis(100);

	/**
	 * The session timeout of the applications: the servers' tick is 500 ms, so sessions of up to
	 * 10 s are granted as asked.
	 */
	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);

	private static final Duration STOP_TIME = Duration.ofMillis(200);

	/**
	 * The stop time of each component under a connection loss: the four stops take more than
	 * the third of the session timeout that the guide's margin leaves between the suspension and
	 * the earliest end of the session if they run one after the other, and well less if each
	 * group stops on its own.
	 */
	private static final Duration SLOW_STOP_TIME = Duration.ofMillis(800);

	/**
	 * How long the test watches for a component that should not run.
	 */
	private static final Duration WATCH = Duration.ofSeconds(2);

	private static final Duration TIMEOUT = Duration.ofSeconds(45);

	private final List<ComponentProcess> processes = new ArrayList<>();

	private Path runFolder;

	private ZooKeeperEnsemble ensemble;

	private Participants participants;

	private Path folder;

	private String prefix;

	@BeforeAll
	void startEnsemble() {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		this.runFolder = Path.of("target", "system-tests", "components-" + stamp).toAbsolutePath();
		this.ensemble = ZooKeeperEnsemble.builder().start();
		this.participants = new Participants(this.ensemble.connectString());
	}

	@AfterEach
	void stopProcesses() {
		this.processes.forEach(ComponentProcess::close);
		this.processes.clear();
	}

	@AfterAll
	void stopEnsemble() {
		if (this.participants != null) {
			this.participants.close();
		}
		if (this.ensemble != null) {
			this.ensemble.close();
		}
	}

	@Test
	void aFollowerWhoseContextIsStoppedAndStartedRunsNoComponentBesideTheLeaders(TestInfo test) throws Exception {
		ComponentProcess leader = leaderThenFollower("follower", STOP_TIME, test).get(0);
		ComponentProcess follower = this.processes.get(1);
		follower.stopContext();
		awaitParticipants(1);
		// DefaultLifecycleProcessor starts every lifecycle bean that is not running, whatever its
		// isAutoStartup() says.
		follower.startContext();
		awaitParticipants(2);
		awaitEveryGroupRunsInto(leader, System.nanoTime() + WATCH.toNanos());

		ComponentRuns runs = runs();
		assertNoViolation(runs);
		for (String group : groups()) {
			assertThat(runs.of(follower.name(), group)).as("intervals of the follower's component of %s", group)
				.isEmpty();
		}
	}

	@Test
	void aLeaderWhoseContextIsStoppedAndStartedHandsOverAndRunsNothingUntilItLeadsAgain(TestInfo test)
			throws Exception {
		ComponentProcess first = leaderThenFollower("leader", STOP_TIME, test).get(0);
		ComponentProcess second = this.processes.get(1);
		first.stopContext();
		long stopped = System.nanoTime();
		awaitEveryGroupRunsInto(second, stopped);
		first.startContext();
		long started = System.nanoTime();
		awaitParticipants(2);
		awaitEveryGroupRunsInto(second, System.nanoTime() + WATCH.toNanos());
		long secondStops = System.nanoTime();
		second.stopContext();
		awaitEveryGroupRunsInto(first, System.nanoTime());

		ComponentRuns runs = runs();
		assertNoViolation(runs);
		for (String group : groups()) {
			List<Operation> before = runs.of(first.name(), group)
				.stream()
				.filter((operation) -> endNanos(operation) <= stopped)
				.toList();
			assertThat(before).as("intervals of the first leader's component of %s before its stop", group)
				.isNotEmpty()
				.last()
				.satisfies((last) -> assertThat(last.detail()).as("its last interval")
					.isEqualTo(RecordedComponent.STOPPING));
			Operation takeover = runs.firstStartingAfter(second.name(), group, Long.MIN_VALUE).orElseThrow();
			assertThat(startNanos(takeover)).as("start of the second's component of %s, ns", group)
				.isGreaterThanOrEqualTo(endNanos(before.get(before.size() - 1)))
				.isLessThan(started);
			assertThat(runs.of(first.name(), group)).as("intervals of the first's component of %s while the second "
					+ "led, from its context's stop to the second's", group)
				.filteredOn((operation) -> endNanos(operation) > stopped && startNanos(operation) < secondStops)
				.isEmpty();
			Operation again = runs.firstStartingAfter(first.name(), group, secondStops).orElseThrow();
			assertThat(again.token()).as("epoch of the first's component of %s once it leads again", group)
				.isNotNull()
				.isGreaterThan(takeover.token());
		}
	}

	@Test
	void everyGroupOfAnInstanceThatLosesItsConnectionStopsBeforeItsSessionCanEndAndOnlyThenIsTakenOver(
			TestInfo test) throws Exception {
		ComponentProcess leader = leaderThenFollower("loss", SLOW_STOP_TIME, test).get(0);
		ComponentProcess other = this.processes.get(1);
		long partitionMillis = System.currentTimeMillis();
		long partition = System.nanoTime();
		leader.proxy().blackhole();
		awaitEveryGroupRunsInto(other, partition);
		leader.proxy().heal();
		awaitParticipants(2);
		awaitEveryGroupRunsInto(other, System.nanoTime() + WATCH.toNanos());

		ComponentRuns runs = runs();
		Operation suspended = runs.connections(leader.name(), "SUSPENDED")
			.stream()
			.filter((event) -> event.start() >= partitionMillis)
			.findFirst()
			.orElseThrow(() -> new AssertionError("No suspension of " + leader + " after the partition"));
		System.out.printf("[components] %s partitioned at %d (wall clock, ms), suspended %d ms after%n", leader.name(),
				partitionMillis, suspended.start() - partitionMillis);
		// The guide: the components stop when the connection is suspended, two thirds of the
		// session timeout after the leader last heard from ZooKeeper, before the server can expire
		// the session, a whole session timeout after that: a third of it after the suspension.
		long margin = SESSION_TIMEOUT.dividedBy(3).toMillis();
		SoftAssertions softly = new SoftAssertions();
		for (String group : groups()) {
			List<Operation> stops = runs.stops(leader.name(), group)
				.stream()
				.filter((operation) -> endNanos(operation) > partition)
				.toList();
			Operation takeover = runs.firstStartingAfter(other.name(), group, partition).orElseThrow();
			softly.assertThat(stops).as("stops of the partitioned leader's component of %s", group).hasSize(1);
			if (stops.size() != 1) {
				continue;
			}
			Operation stop = stops.get(0);
			System.out.printf("[components] %s: stop of %s from %d to %d ms after the suspension, taken over by %s "
					+ "%d ms after it%n", leader.name(), group, stop.start() - suspended.start(),
					stop.end() - suspended.start(), other.name(), takeover.start() - suspended.start());
			// SUSPENDED reaches Curator's listeners one after the other, zklock's elections before
			// the history's: the stop it starts may be written a few milliseconds before it.
			softly.assertThat(stop.start())
				.as("start of the stop of %s (the suspension at %d, the partition at %d), ms", group, suspended.start(),
						partitionMillis)
				.isGreaterThanOrEqualTo(partitionMillis)
				.isGreaterThanOrEqualTo(suspended.start() - LISTENERS_BEFORE_THE_HISTORY.toMillis());
			softly.assertThat(stop.end() - suspended.start())
				.as("time from the suspension to the end of the stop of %s, ms (the session can end %d ms after "
						+ "the suspension)", group, margin)
				.isLessThan(margin);
			softly.assertThat(startNanos(takeover))
				.as("start of the other's component of %s, %d ms after the end of the partitioned leader's stop",
						group, millis(startNanos(takeover) - endNanos(stop)))
				.isGreaterThan(endNanos(stop));
			softly.assertThat(runs.endingAfter(leader.name(), group, endNanos(stop)))
				.as("intervals of the partitioned leader's component of %s after its stop", group)
				.isEmpty();
		}
		softly.assertThat(runs.check().violations()).as("invariant violations; see %s", this.folder).isEmpty();
		softly.assertAll();
	}

	private static long millis(long nanos) {
		return Duration.ofNanos(nanos).toMillis();
	}

	/**
	 * Start a first process, wait until it runs the component of every group, then a second,
	 * and wait until it takes part in every election.
	 * @return the two processes, the leader first
	 */
	private List<ComponentProcess> leaderThenFollower(String prefix, Duration stopTime, TestInfo test)
			throws Exception {
		this.prefix = prefix;
		this.folder = this.runFolder.resolve(test.getTestMethod().orElseThrow().getName());
		Files.createDirectories(this.folder);
		ComponentProcess leader = start(prefix + "-a", stopTime);
		awaitEveryGroupRunsInto(leader, System.nanoTime());
		ComponentProcess follower = start(prefix + "-b", stopTime);
		awaitParticipants(2);
		return List.of(leader, follower);
	}

	private ComponentProcess start(String name, Duration stopTime) {
		ComponentProcess process = ComponentProcess.start(name, this.ensemble.connectString(), SESSION_TIMEOUT,
				this.prefix, stopTime, this.folder);
		this.processes.add(process);
		process.awaitReady();
		return process;
	}

	/**
	 * Wait until a process has run the component of every group past the given time.
	 */
	private void awaitEveryGroupRunsInto(ComponentProcess process, long nanos) {
		await("every component of " + process + " running past " + nanos).atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> {
				ComponentRuns runs = runs();
				return groups().stream().allMatch((group) -> !runs.endingAfter(process.name(), group, nanos).isEmpty());
			});
	}

	private void awaitParticipants(int count) {
		await(count + " participants in every election").atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> {
				for (String group : groups()) {
					if (this.participants.count(group) != count) {
						return false;
					}
				}
				return true;
			});
	}

	private ComponentRuns runs() {
		return ComponentRuns.read(this.folder.resolve("history"));
	}

	private List<String> groups() {
		return IntStream.rangeClosed(1, ComponentApplication.GROUPS)
			.mapToObj((number) -> ComponentApplication.group(this.prefix, number))
			.toList();
	}

	private void assertNoViolation(ComponentRuns runs) {
		CheckReport report = runs.check();
		assertThat(report.violations()).as("invariant violations; see %s; report:%n%s", this.folder, report)
			.isEmpty();
	}

}
