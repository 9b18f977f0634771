package dev.zklock.benchmarks.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.FencedLocks;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.test.JavaProcess;

/**
 * What the workloads of one key shared by two JVMs of 8 threads each share (4: the plain lock
 * cycle, {@link TwoProcessesBenchmark}; 4t: every holder asks its fencing token,
 * {@link TwoProcessesFencedBenchmark}). The second JVM ({@link ContendingProcess}) runs the same
 * loop with the same library for the whole trial. JMH's figures are those of the benchmark JVM;
 * over each measurement iteration this state also counts the grants of both JVMs and the longest
 * time each JVM went between two of its grants, and appends them to the file named by
 * {@value ZooKeeperTarget#GRANTS_FILE_PROPERTY}, so that the report can give their combined
 * throughput and each JVM's share.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public abstract class TwoJvmBenchmark {

	/** The threads of each JVM. */
	static final int THREADS = 8;

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	/** Longest a second JVM may run: it stops by itself after that even if nobody stops it. */
	private static final Duration MAX_TRIAL = Duration.ofHours(2);

	private static final Pattern READY = Pattern.compile("^" + ContendingProcess.READY + "(\\d+)$", Pattern.MULTILINE);

	private JavaProcess other;

	private int otherPort;

	private final LongAdder grants = new LongAdder();

	private final GrantGaps gaps = new GrantGaps();

	private long otherGrantsAtStart;

	private long iterationStart;

	private boolean counting;

	private CuratorFramework client;

	private ExclusiveLocks locks;

	private @Nullable FencedLocks fencedLocks;

	/**
	 * Return the id of the library under test, the value of the subclass's {@code @Param}.
	 * @return the id
	 */
	protected abstract String library();

	/**
	 * Return the benchmark class, whose name the grant counts carry (JMH runs a generated
	 * subclass of it).
	 * @return the class
	 */
	protected abstract Class<? extends TwoJvmBenchmark> benchmark();

	/**
	 * Return whether every holder, in both JVMs, asks for its fencing token.
	 * @return whether it does
	 */
	protected abstract boolean fenced();

	/**
	 * Return the key both JVMs lock.
	 * @return the key
	 */
	protected abstract String key();

	@Setup(Level.Trial)
	public void open() {
		this.other = JavaProcess.builder(ContendingProcess.class)
			.name("contender-" + library())
			.jvmArgs(ZooKeeperTarget.childJvmArgs())
			.args(library(), ZooKeeperTarget.connectString(), key(), Integer.toString(THREADS),
					Long.toString(MAX_TRIAL.toSeconds()), fenced() ? ContendingProcess.FENCED : ContendingProcess.PLAIN)
			.start();
		try {
			this.client = ZooKeeperTarget.connect();
			Library library = Library.of(library());
			this.fencedLocks = fenced() ? library.fenced(this.client) : null;
			this.locks = (this.fencedLocks != null) ? this.fencedLocks : library.exclusive(this.client);
			this.other.awaitOutput(READY.pattern(), START_TIMEOUT);
			Matcher ready = READY.matcher(this.other.outputText());
			if (!ready.find()) {
				throw new IllegalStateException(this.other + " named no port to read its grants from");
			}
			this.otherPort = Integer.parseInt(ready.group(1));
		}
		catch (RuntimeException ex) {
			ZooKeeperTarget.closeAll(this.locks, this.client, this.other);
			throw ex;
		}
	}

	@Setup(Level.Iteration)
	public void startCounting(IterationParams iteration) {
		this.counting = iteration.getType() == IterationType.MEASUREMENT;
		if (this.counting) {
			this.grants.reset();
			this.otherGrantsAtStart = otherGrants()[0];
			this.gaps.longestThenReset();
			this.iterationStart = System.nanoTime();
		}
	}

	@TearDown(Level.Iteration)
	public void stopCounting() throws IOException {
		if (!this.counting) {
			return;
		}
		double seconds = (System.nanoTime() - this.iterationStart) / 1e9;
		long[] other = otherGrants();
		long ownLongestGap = this.gaps.longestThenReset();
		String file = System.getProperty(ZooKeeperTarget.GRANTS_FILE_PROPERTY);
		if (file != null && !file.isBlank()) {
			GrantCount count = new GrantCount(benchmark().getName(), library(), ProcessHandle.current().pid(),
					this.grants.sum(),
					other[0] - this.otherGrantsAtStart, seconds, ownLongestGap, other[1]);
			Files.writeString(Path.of(file), count.line(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
	}

	/**
	 * Ask the second JVM for its grants so far and the longest gap between two of them since the
	 * last time it was asked.
	 */
	private long[] otherGrants() {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.otherPort)) {
			socket.setSoTimeout((int) START_TIMEOUT.toMillis());
			String[] answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim()
				.split(" ");
			return new long[] { Long.parseLong(answer[0]), Long.parseLong(answer[1]) };
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the grants of " + this.other, ex);
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		if (this.other != null) {
			this.other.stop(Duration.ofSeconds(20));
		}
		ZooKeeperTarget.closeAll(this.locks, this.client, this.other);
	}

	/**
	 * Take the key's lock, asking for the grant's fencing token where the workload is fenced, do
	 * nothing, release it, and count the grant: one operation of the workload.
	 * @return the token, or {@link FencedLocks#NO_TOKEN}
	 * @throws Exception when the library fails
	 */
	protected final long lockCycle() throws Exception {
		long token = FencedLocks.NO_TOKEN;
		if (this.fencedLocks != null) {
			token = this.fencedLocks.runFenced(key(), ZooKeeperTarget.NO_WORK);
		}
		else {
			this.locks.runExclusive(key(), ZooKeeperTarget.NO_WORK);
		}
		this.grants.increment();
		this.gaps.granted();
		return token;
	}

}
