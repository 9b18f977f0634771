package dev.zklock.benchmarks.workload;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
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

import dev.zklock.benchmarks.library.FencedLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * Workload 2t: one key, 32 threads of one JVM sharing one client, every holder asking for its
 * fencing token before its (empty) work. Curator's {@code InterProcessMutex} has no token: its
 * rows (one mutex shared by the threads, and one per thread) are the plain cycle, the baselines
 * zklock's tokens are measured against.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class OneKeyFencedBenchmark {

	private static final String KEY = "fenced";

	/** The library under test. */
	@Param({ "curator", "curator-per-thread", "zklock" })
	public String library = "zklock";

	private @Nullable CuratorFramework client;

	private @Nullable FencedLocks locks;

	@Setup(Level.Trial)
	public void open() {
		this.client = ZooKeeperTarget.connect();
		this.locks = Library.of(this.library).fenced(this.client);
	}

	@TearDown(Level.Trial)
	public void close() {
		ZooKeeperTarget.closeAll(this.locks, this.client);
	}

	@Benchmark
	@Threads(32)
	public long thirtyTwoThreads() throws Exception {
		FencedLocks locks = this.locks;
		if (locks == null) {
			throw new IllegalStateException("The trial has not opened the locks");
		}
		return locks.runFenced(KEY, ZooKeeperTarget.NO_WORK);
	}

}
