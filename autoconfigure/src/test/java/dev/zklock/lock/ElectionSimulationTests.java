package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The elections driven by the deterministic simulator ({@link SimElectionRun}): seeds run one
 * after the other, each a whole run of several instances in several groups with faults, yields
 * and restarts, checked after every step. A failing seed prints the command that replays it and
 * the run's last steps.
 * <p>
 * System properties, as for {@link LockCoreSimulationTests}: {@code zklock.sim.seed} replays one
 * seed; {@code zklock.sim.election-seeds} (2,000) and {@code zklock.sim.first-seed} (1) choose the
 * seeds, {@code zklock.sim.threads} how many run at once; {@code zklock.sim.minutes} searches for
 * that long instead (the {@code simulation-search} profile). Logging of the elections is off
 * while seeds run.
 */
class ElectionSimulationTests {

	private static Level level;

	@BeforeAll
	static void quietLogs() {
		Logger logger = (Logger) LoggerFactory.getLogger("dev.zklock.leader");
		level = logger.getLevel();
		logger.setLevel(Level.OFF);
	}

	@AfterAll
	static void restoreLogs() {
		((Logger) LoggerFactory.getLogger("dev.zklock.leader")).setLevel(level);
	}

	@Test
	void everySeedKeepsThePromises() throws Exception {
		String replay = System.getProperty("zklock.sim.seed");
		if (replay != null) {
			SimElectionRun run = new SimElectionRun(Long.parseLong(replay), Integer.getInteger("zklock.sim.trace", 400),
					SimElectionRun.Breaks.NONE);
			SimElectionRun.Violation violation = run.run();
			System.out.println("Seed " + replay + ": " + run.describe() + "; " + run.steps() + " steps, " + run.grants()
					+ " grants, " + run.faultsInjected() + " faults, " + run.failedStarts() + " failed starts, "
					+ run.failedStops() + " failed stops, " + run.blockingCalls() + " blocking calls worked, "
					+ run.callsLost() + " lost, " + run.callsInterrupted() + " interrupted");
			assertThat(violation).as(() -> String.valueOf(violation)).isNull();
			return;
		}
		double minutes = Double.parseDouble(System.getProperty("zklock.sim.minutes", "0"));
		long first = Long.getLong("zklock.sim.first-seed", (minutes > 0) ? System.currentTimeMillis() : 1);
		long seeds = Long.getLong("zklock.sim.election-seeds", (minutes > 0) ? Long.MAX_VALUE : 2000);
		int threads = Integer.getInteger("zklock.sim.threads", Runtime.getRuntime().availableProcessors());
		long stopAt = (minutes > 0) ? System.nanoTime() + (long) (minutes * TimeUnit.MINUTES.toNanos(1)) : Long.MAX_VALUE;
		AtomicLong done = new AtomicLong();
		AtomicLong grants = new AtomicLong();
		AtomicLong faults = new AtomicLong();
		AtomicLong refused = new AtomicLong();
		AtomicLong failedStarts = new AtomicLong();
		AtomicLong failedStops = new AtomicLong();
		AtomicLong blockingCalls = new AtomicLong();
		AtomicLong callsLost = new AtomicLong();
		AtomicLong callsInterrupted = new AtomicLong();
		long started = System.nanoTime();
		List<SimElectionRun.Violation> violations = Collections.synchronizedList(new ArrayList<>());
		AtomicLong next = new AtomicLong(first);
		ExecutorService workers = Executors.newFixedThreadPool(threads);
		List<Future<?>> running = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			running.add(workers.submit(() -> {
				while (violations.size() < 3 && System.nanoTime() < stopAt) {
					long seed = next.getAndIncrement();
					if (seed - first >= seeds) {
						return null;
					}
					SimElectionRun run = new SimElectionRun(seed, 60, SimElectionRun.Breaks.NONE);
					SimElectionRun.Violation violation = run.run();
					done.incrementAndGet();
					grants.addAndGet(run.grants());
					faults.addAndGet(run.faultsInjected());
					refused.addAndGet(run.refusedAtOnce());
					failedStarts.addAndGet(run.failedStarts());
					failedStops.addAndGet(run.failedStops());
					blockingCalls.addAndGet(run.blockingCalls());
					callsLost.addAndGet(run.callsLost());
					callsInterrupted.addAndGet(run.callsInterrupted());
					if (violation != null) {
						violations.add(violation);
					}
				}
				return null;
			}));
		}
		for (Future<?> worker : running) {
			worker.get();
		}
		workers.shutdown();
		double seconds = (System.nanoTime() - started) / 1e9;
		System.out.printf("Election simulation: %d seeds from %d in %.1f s on %d threads (%.0f seeds/s); per seed %.1f "
				+ "grants, %.1f faults on average; %d requests refused at once, %d components' starts and %d stops "
				+ "failed in all; %d blocking leader-only calls worked, %d ended with their term lost, %d of them "
				+ "interrupted; %d violations%n", done.get(), first, seconds, threads, done.get() / seconds,
				grants.get() / (double) done.get(), faults.get() / (double) done.get(), refused.get(), failedStarts.get(),
				failedStops.get(), blockingCalls.get(), callsLost.get(), callsInterrupted.get(), violations.size());
		violations.sort(Comparator.comparingLong(SimElectionRun.Violation::seed));
		assertThat(violations).as(() -> violations.get(0).toString()).isEmpty();
	}

	@Test
	void theSameSeedGivesTheSameRun() {
		for (long seed = 11; seed < 14; seed++) {
			SimElectionRun one = new SimElectionRun(seed, 50, SimElectionRun.Breaks.NONE);
			SimElectionRun.Violation first = one.run();
			SimElectionRun two = new SimElectionRun(seed, 50, SimElectionRun.Breaks.NONE);
			SimElectionRun.Violation second = two.run();
			assertThat(two.steps()).isEqualTo(one.steps());
			assertThat(two.grants()).isEqualTo(one.grants());
			assertThat(String.valueOf(second)).isEqualTo(String.valueOf(first));
		}
	}

	@Test
	void theChecksSeeALeaderThatTrustsItselfAfterAPause() {
		// Taking every participant that says it leads at its word, a paused one too, breaks
		// honesty or the one-leader rule as soon as a session ends under a paused leader.
		SimElectionRun.Violation caught = null;
		for (long seed = 1; seed <= 500 && caught == null; seed++) {
			caught = new SimElectionRun(seed, 20, new SimElectionRun.Breaks(true, false)).run();
		}
		assertThat(caught).as("caught within 500 seeds").isNotNull();
		assertThat(caught.promise()).isIn("honesty", "one leader");
	}

	@Test
	void theChecksSeeComponentsRunOnTwoInstances() {
		// A participant that yields without stopping its components first hands them the stop
		// at once, so that they follow the leadership; but the next leader starts its own before
		// the stop has ended.
		SimElectionRun.Violation caught = null;
		for (long seed = 1; seed <= 500 && caught == null; seed++) {
			caught = new SimElectionRun(seed, 20, new SimElectionRun.Breaks(false, true)).run();
		}
		assertThat(caught).as("caught within 500 seeds").isNotNull();
		assertThat(caught.promise()).isEqualTo("exclusive components");
	}

}
