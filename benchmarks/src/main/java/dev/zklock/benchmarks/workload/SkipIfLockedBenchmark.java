package dev.zklock.benchmarks.workload;

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

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.library.SkippingLocks;

/**
 * Workload 1, scheduled-job form: one thread runs a job that is skipped when another instance
 * holds its lock, never waiting. With the lock free every call runs the job; with the lock held
 * by another session every call is skipped.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class SkipIfLockedBenchmark {

	private static final String KEY = "scheduled-job";

	/** The library under test. */
	@Param({ "shedlock", "curator", "zklock" })
	public String library = "zklock";

	/** Whether another session holds the lock: {@code free} or {@code held}. */
	@Param({ "free", "held" })
	public String lock = "free";

	private CuratorFramework client;

	private SkippingLocks locks;

	private LockHolder holder;

	private boolean expectRun;

	@Setup(Level.Trial)
	public void open() {
		Library library = Library.of(this.library);
		this.expectRun = switch (this.lock) {
			case "free" -> true;
			case "held" -> false;
			default -> throw new IllegalArgumentException("lock must be free or held, not " + this.lock);
		};
		this.client = ZooKeeperTarget.connect();
		this.locks = library.skipping(this.client);
		if (!this.expectRun) {
			this.holder = LockHolder.hold(ZooKeeperTarget.connectString(), library, KEY);
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		ZooKeeperTarget.closeAll(this.holder, this.locks, this.client);
	}

	@Benchmark
	@Threads(1)
	public boolean oneThread() throws Exception {
		boolean ran = this.locks.runIfFree(KEY, ZooKeeperTarget.NO_WORK);
		if (ran != this.expectRun) {
			throw new IllegalStateException("The job " + (ran ? "ran although the lock is held elsewhere"
					: "was skipped although the lock is free"));
		}
		return ran;
	}

}
