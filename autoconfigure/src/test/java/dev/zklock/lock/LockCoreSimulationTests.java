package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock core driven by the deterministic simulator ({@link SimRun}): seeds run one after the
 * other, each a whole run of several instances with faults, checked after every step. A failing
 * seed prints the command that replays it and the run's last steps.
 * <p>
 * System properties: {@code zklock.sim.seed} replays one seed, with a longer trace;
 * {@code zklock.sim.seeds} (2,000) and {@code zklock.sim.first-seed} (1) choose the seeds,
 * {@code zklock.sim.blocking-seeds} (1,000) those run again with blocking callers, and
 * {@code zklock.sim.blocking} makes the first test's runs (and a replay) have them too;
 * {@code zklock.sim.threads} (the processors) how many run at once;
 * {@code zklock.sim.minutes} searches for that long instead, from a seed drawn from the clock
 * (the {@code simulation-search} profile). Logging of the lock core is off while seeds run.
 */
class LockCoreSimulationTests {

	private static final long HUNG_SECONDS = 60;

	private static Level level;

	@BeforeAll
	static void quietLogs() {
		Logger logger = (Logger) LoggerFactory.getLogger("dev.zklock.lock");
		level = logger.getLevel();
		logger.setLevel(Level.OFF);
	}

	@AfterAll
	static void restoreLogs() {
		((Logger) LoggerFactory.getLogger("dev.zklock.lock")).setLevel(level);
	}

	@Test
	void everySeedKeepsThePromises() throws Exception {
		runSeeds("Lock core simulation", Boolean.getBoolean("zklock.sim.blocking"), "zklock.sim.seeds", 2000);
	}

	@Test
	void blockingCallsKeepThePromises() throws Exception {
		// The same worlds, with half the callers making blocking calls on simulated threads
		// (reentrant calls and interrupts among them).
		if (System.getProperty("zklock.sim.seed") == null) {
			runSeeds("Lock core simulation with blocking calls", true, "zklock.sim.blocking-seeds", 1000);
		}
	}

	private static void runSeeds(String label, boolean blocking, String seedsProperty, long defaultSeeds)
			throws Exception {
		String replay = System.getProperty("zklock.sim.seed");
		if (replay != null) {
			SimRun run = new SimRun(Long.parseLong(replay), Integer.getInteger("zklock.sim.trace", 400), SimRun.Breaks.NONE,
					blocking);
			SimRun.Violation violation = run.run();
			System.out.println("Seed " + replay + ": " + run.describe() + "; " + run.steps() + " steps, "
					+ run.requests() + " requests, " + run.faultsInjected() + " faults");
			assertThat(violation).as(() -> String.valueOf(violation)).isNull();
			return;
		}
		double minutes = Double.parseDouble(System.getProperty("zklock.sim.minutes", "0"));
		long first = Long.getLong("zklock.sim.first-seed", (minutes > 0) ? System.currentTimeMillis() : 1);
		long seeds = Long.getLong(seedsProperty, (minutes > 0) ? Long.MAX_VALUE : defaultSeeds);
		int threads = Integer.getInteger("zklock.sim.threads", Runtime.getRuntime().availableProcessors());
		long stopAt = (minutes > 0) ? System.nanoTime() + (long) (minutes * TimeUnit.MINUTES.toNanos(1)) : Long.MAX_VALUE;
		Summary summary = new Summary();
		long started = System.nanoTime();
		List<SimRun.Violation> violations = Collections.synchronizedList(new ArrayList<>());
		AtomicLong next = new AtomicLong(first);
		// Seeds are independent worlds: they run on several threads, each seed still on one
		// (its simulated threads taking turns with it).
		ExecutorService workers = Executors.newFixedThreadPool(threads, (task) -> {
			Thread thread = new Thread(task, "simulated seeds");
			thread.setDaemon(true);
			return thread;
		});
		Map<Thread, long[]> seedsRunning = new ConcurrentHashMap<>();
		List<Future<?>> running = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			running.add(workers.submit(() -> {
				while (violations.size() < 3 && System.nanoTime() < stopAt) {
					long seed = next.getAndIncrement();
					if (seed - first >= seeds) {
						return null;
					}
					seedsRunning.put(Thread.currentThread(), new long[] { seed, System.nanoTime() });
					SimRun run = new SimRun(seed, 60, SimRun.Breaks.NONE, blocking);
					SimRun.Violation violation = run.run();
					seedsRunning.remove(Thread.currentThread());
					summary.add(run);
					if (violation != null) {
						violations.add(violation);
					}
				}
				return null;
			}));
		}
		for (Future<?> worker : running) {
			while (true) {
				try {
					worker.get(1, TimeUnit.SECONDS);
					break;
				}
				catch (TimeoutException ex) {
					failIfHung(seedsRunning, blocking);
				}
			}
		}
		workers.shutdown();
		double seconds = (System.nanoTime() - started) / 1e9;
		System.out.printf("%s: %d seeds from %d in %.1f s on %d threads (%.0f seeds/s); per seed %.0f "
				+ "requests, %.1f faults, %.0f steps on average; %d forced releases and %d requests refused at once in all; "
				+ "%s%d violations%n", label, summary.seeds, first, seconds, threads, summary.seeds / seconds,
				summary.requests / (double) summary.seeds, summary.faults / (double) summary.seeds,
				summary.steps / (double) summary.seeds, summary.releases, summary.refused,
				blocking ? summary.blockingCounts() : "", violations.size());
		violations.sort(Comparator.comparingLong(SimRun.Violation::seed));
		assertThat(violations).as(() -> violations.get(0).toString()).isEmpty();
	}

	/**
	 * Fail if a seed has run for {@link #HUNG_SECONDS}: a world whose own thread blocks (on a
	 * lock a waiting simulated thread holds) never ends by itself. The seed's thread is a daemon,
	 * left blocked.
	 */
	private static void failIfHung(Map<Thread, long[]> seedsRunning, boolean blocking) {
		seedsRunning.forEach((thread, seed) -> {
			if (System.nanoTime() - seed[1] > TimeUnit.SECONDS.toNanos(HUNG_SECONDS)) {
				StringBuilder stack = new StringBuilder();
				for (StackTraceElement element : thread.getStackTrace()) {
					stack.append("\n    at ").append(element);
				}
				throw new AssertionError("Seed " + seed[0] + " broke simulated threads: the simulator's thread has been blocked"
						+ " for " + HUNG_SECONDS + " s (replay it with -Dzklock.sim.seed=" + seed[0]
						+ (blocking ? " -Dzklock.sim.blocking=true" : "") + "):" + stack);
			}
		});
	}

	@Test
	void theSameSeedGivesTheSameRun() {
		// With blocking callers too: their simulated threads run one at a time, at the world's
		// steps, so their runs repeat step for step as well.
		for (boolean blocking : new boolean[] { false, true }) {
			for (long seed = 11; seed < 14; seed++) {
				SimRun one = new SimRun(seed, 50, SimRun.Breaks.NONE, blocking);
				SimRun.Violation first = one.run();
				SimRun two = new SimRun(seed, 50, SimRun.Breaks.NONE, blocking);
				SimRun.Violation second = two.run();
				assertThat(two.steps()).isEqualTo(one.steps());
				assertThat(two.requests()).isEqualTo(one.requests());
				assertThat(two.blockingCounts()).isEqualTo(one.blockingCounts());
				assertThat(String.valueOf(second)).isEqualTo(String.valueOf(first));
			}
		}
	}

	@Test
	void aFirstUseOfUnknownOutcomeNamedJustBeforeTheSequenceEndDoesNotKeepTheKeyForever() {
		// Seed 13,017 (found by a search of 20,000 seeds, beyond the build's): a first-use
		// transaction whose reply is lost made a node named just before the key node's sequence
		// end; every later create of the key was named past the end and answered before the read
		// that would have looked for that node, so no read ever did, and the node of a live
		// session kept the key node (and every instance's calls) until the run ended.
		SimRun run = new SimRun(13_017, 200, SimRun.Breaks.NONE);
		SimRun.Violation violation = run.run();
		assertThat(violation).as(() -> String.valueOf(violation)).isNull();
	}

	@Test
	void aConfirmationAnsweredAfterTheConnectionWasSuspendedDoesNotStartTheWork() {
		// Seeds 33,304 and 24,532 (a search of 50,000 seeds at 0797247): a node granted while its
		// instance was paused was confirmed with the server; the connection was suspended (or
		// the session lost) while the confirmation was on its way, and its OK still made the
		// grant valid, so the call's work started on a node in doubt (or lost).
		for (long seed : new long[] { 33_304, 24_532 }) {
			SimRun run = new SimRun(seed, 200, SimRun.Breaks.NONE);
			SimRun.Violation violation = run.run();
			assertThat(violation).as(() -> "seed " + seed + ": " + violation).isNull();
		}
	}

	@Test
	void aBlockingCallThatGetsOnlySomeOfItsKeysReturnsWithinItsWaitTime() throws Exception {
		// Seed 117 with blocking callers: a call on two keys with a wait time of 90 ms got the
		// first, not the second, and then waited for the delete of the first, its connection
		// gone without the client knowing yet: it returned after 2,975 ms.
		SimRun.Violation violation = runPinned(117);
		assertThat(violation).as(() -> String.valueOf(violation)).isNull();
	}

	@Test
	void aBlockingTokenAskDoesNotHoldUpOneThatDoesNotBlock() throws Exception {
		// Seed 602 with blocking callers: with a blocking fencingToken() that holds its grant
		// batch's lock while it waits for the write that gives the node a new zxid, a grant of
		// the same batch asking fencingTokenAsync() blocks the thread that asks (here the
		// world's own). Seed 58 found it, in the simulator as it was before the fix.
		SimRun.Violation violation = runPinned(602);
		assertThat(violation).as(() -> String.valueOf(violation)).isNull();
	}

	@Test
	void aCallWithANodeOfItsOwnStartsItsWorkOnlyWhileItsGrantIsValid() throws Exception {
		// Seeds 127 and 236 with blocking callers, local handoff off (a node per call): the node
		// was granted, then the connection was suspended (127), or an operator released it (236),
		// before the call registered it; the call returned it all the same, in doubt or lost.
		for (long seed : new long[] { 127, 236 }) {
			SimRun.Violation violation = runPinned(seed);
			assertThat(violation).as(() -> String.valueOf(violation)).isNull();
		}
	}

	@Test
	void aRequestWhoseKeyNodeIsGoneAsksAgainRatherThanReadingForever() throws Exception {
		// Seed 4398 with blocking callers, a node per call: after a reconnect with the same
		// session, a request whose node was gone read its key's children, found no key node,
		// stalled, and read again every 100 ms for as long as the session lived.
		SimRun.Violation violation = runPinned(4398);
		assertThat(violation).as(() -> String.valueOf(violation)).isNull();
	}

	/**
	 * Run one seed with blocking callers on a thread of its own, failing if the world's thread
	 * stays blocked for {@link #HUNG_SECONDS}.
	 */
	private static SimRun.@Nullable Violation runPinned(long seed) throws Exception {
		ExecutorService worker = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "simulated seed " + seed);
			thread.setDaemon(true);
			return thread;
		});
		Future<SimRun.@Nullable Violation> run = worker.submit(() -> new SimRun(seed, 200, SimRun.Breaks.NONE, true).run());
		worker.shutdown();
		try {
			return run.get(HUNG_SECONDS, TimeUnit.SECONDS);
		}
		catch (TimeoutException ex) {
			throw new AssertionError("Seed " + seed + ": the simulator's thread has been blocked for " + HUNG_SECONDS + " s");
		}
	}

	@Test
	void theChecksSeeAGrantThatIsTrustedTooLong() {
		// Taking every unreleased grant for valid breaks honesty as soon as a session ends under
		// a holder: the checks must say so within a few seeds.
		SimRun.Violation caught = null;
		for (long seed = 1; seed <= 200 && caught == null; seed++) {
			caught = new SimRun(seed, 20, new SimRun.Breaks(true, false)).run();
		}
		assertThat(caught).isNotNull();
		assertThat(caught.promise()).isIn("honesty", "exclusion");
	}

	@Test
	void theChecksSeeAReleaseThatDeletesANodeItsOwnerStillGrants() {
		// Deleting a released node without the owner's answer, as the first version of the
		// forced release did when the owner did not confirm in time, leaves the owner's holders
		// valid on a node that is gone: the checks must say so.
		SimRun.Violation caught = null;
		long seed = 1;
		for (; seed <= 2000 && caught == null; seed++) {
			caught = new SimRun(seed, 20, new SimRun.Breaks(false, true)).run();
		}
		assertThat(caught).as("caught within 2,000 seeds").isNotNull();
		System.out.println("A release deleting without the owner's answer: caught at seed " + caught.seed() + ", "
				+ caught.promise() + ": " + caught.what());
		assertThat(caught.promise()).isIn("honesty", "exclusion");
	}

	private static final class Summary {

		long seeds;

		long requests;

		long faults;

		long steps;

		long releases;

		long refused;

		long blockingCalls;

		long reentered;

		long interrupts;

		long waitedFor;

		long waitsTimedOut;

		synchronized void add(SimRun run) {
			int[] blocking = run.blockingCounts();
			this.blockingCalls += blocking[0];
			this.reentered += blocking[1];
			this.interrupts += blocking[2];
			int[] waited = run.waitedFor();
			this.waitedFor += waited[0];
			this.waitsTimedOut += waited[1];
			this.releases += run.releasesMade();
			this.refused += run.refusedAtOnce();
			this.seeds++;
			this.requests += run.requests();
			this.faults += run.faultsInjected();
			this.steps += run.steps();
		}

		synchronized String blockingCounts() {
			return this.blockingCalls + " blocking calls, " + this.reentered + " of them reentrant and " + this.interrupts
					+ " interrupted; " + this.waitedFor + " transactions answered on the thread that sent them, "
					+ this.waitsTimedOut + " of them after its wait ended; ";
		}

	}

}
