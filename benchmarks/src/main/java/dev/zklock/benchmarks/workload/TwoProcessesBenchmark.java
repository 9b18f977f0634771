package dev.zklock.benchmarks.workload;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
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

import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.test.JavaProcess;

/**
 * Workload 4: one key, two JVMs of 8 threads each. The second JVM ({@link ContendingProcess})
 * runs the same loop with the same library for the whole trial; the figures are those of the
 * benchmark JVM, about half of all the handoffs.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class TwoProcessesBenchmark {

	private static final String KEY = "two-processes";

	private static final int THREADS = 8;

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	/** Longest a second JVM may run: it stops by itself after that even if nobody stops it. */
	private static final Duration MAX_TRIAL = Duration.ofHours(2);

	/** The library under test. */
	@Param({ "curator", "spring-integration", "zklock" })
	public String library = "zklock";

	private JavaProcess other;

	private CuratorFramework client;

	private ExclusiveLocks locks;

	@Setup(Level.Trial)
	public void open() {
		this.other = JavaProcess.builder(ContendingProcess.class)
			.name("contender-" + this.library)
			.jvmArgs(ZooKeeperTarget.childJvmArgs())
			.args(this.library, ZooKeeperTarget.connectString(), KEY, Integer.toString(THREADS),
					Long.toString(MAX_TRIAL.toSeconds()))
			.start();
		try {
			this.client = ZooKeeperTarget.connect();
			this.locks = Library.of(this.library).exclusive(this.client);
			this.other.awaitOutput("^" + ContendingProcess.READY + "$", START_TIMEOUT);
		}
		catch (RuntimeException ex) {
			ZooKeeperTarget.closeAll(this.locks, this.client, this.other);
			throw ex;
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		if (this.other != null) {
			this.other.stop(Duration.ofSeconds(20));
		}
		ZooKeeperTarget.closeAll(this.locks, this.client, this.other);
	}

	@Benchmark
	@Threads(THREADS)
	public void eightThreadsEach() throws Exception {
		this.locks.runExclusive(KEY, ZooKeeperTarget.NO_WORK);
	}

}
