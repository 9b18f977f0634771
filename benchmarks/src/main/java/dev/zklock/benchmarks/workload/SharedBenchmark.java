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
import dev.zklock.benchmarks.library.SharedLocks;

/**
 * Workload 5: shared (read) locks, 8 threads of one JVM on one key. Readers hold the lock
 * together, so nothing should serialise them but the client and the server.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class SharedBenchmark {

	private static final String KEY = "shared";

	/** The library under test. */
	@Param({ "curator", "zklock" })
	public String library = "zklock";

	private CuratorFramework client;

	private SharedLocks locks;

	@Setup(Level.Trial)
	public void open() {
		this.client = ZooKeeperTarget.connect();
		this.locks = Library.of(this.library).shared(this.client);
	}

	@TearDown(Level.Trial)
	public void close() {
		ZooKeeperTarget.closeAll(this.locks, this.client);
	}

	@Benchmark
	@Threads(8)
	public void eightThreads() throws Exception {
		this.locks.runShared(KEY, ZooKeeperTarget.NO_WORK);
	}

}
