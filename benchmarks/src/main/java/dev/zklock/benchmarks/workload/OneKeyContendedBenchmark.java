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

import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * Workload 2: one key, many threads of one JVM sharing one client. The lock is never free for
 * long, so the throughput is the rate of handoffs from one thread to the next.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class OneKeyContendedBenchmark {

	private static final String KEY = "contended";

	/** The library under test. */
	@Param({ "curator", "spring-integration", "zklock" })
	public String library = "zklock";

	private CuratorFramework client;

	private ExclusiveLocks locks;

	@Setup(Level.Trial)
	public void open() {
		this.client = ZooKeeperTarget.connect();
		this.locks = Library.of(this.library).exclusive(this.client);
	}

	@TearDown(Level.Trial)
	public void close() {
		ZooKeeperTarget.closeAll(this.locks, this.client);
	}

	@Benchmark
	@Threads(8)
	public void eightThreads() throws Exception {
		this.locks.runExclusive(KEY, ZooKeeperTarget.NO_WORK);
	}

	@Benchmark
	@Threads(32)
	public void thirtyTwoThreads() throws Exception {
		this.locks.runExclusive(KEY, ZooKeeperTarget.NO_WORK);
	}

}
