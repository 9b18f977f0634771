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
import org.openjdk.jmh.infra.ThreadParams;

import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * Workload 3: 8 threads of one JVM sharing one client, each locking a key of its own. Nothing
 * is contended but the client and the server.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class DistinctKeysBenchmark {

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
	public void eightThreads(ThreadKey key) throws Exception {
		this.locks.runExclusive(key.key, ZooKeeperTarget.NO_WORK);
	}

	/**
	 * The key of one benchmark thread.
	 */
	@State(Scope.Thread)
	public static class ThreadKey {

		String key = "";

		@Setup(Level.Trial)
		public void name(ThreadParams thread) {
			this.key = "distinct-" + thread.getThreadIndex();
		}

	}

}
