package dev.zklock.benchmarks.workload;

import java.util.concurrent.TimeUnit;

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

import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * What the exclusive-lock workloads of one JVM share: one client for all benchmark threads and
 * the locks of the library named by the subclass's {@code library} parameter, both opened for
 * the trial and closed after it. Every lock cycle is sampled on its own.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public abstract class ExclusiveLockBenchmark {

	private @Nullable CuratorFramework client;

	private @Nullable ExclusiveLocks locks;

	/**
	 * Return the id of the library under test, the value of the subclass's {@code @Param}.
	 * @return the id
	 */
	protected abstract String library();

	@Setup(Level.Trial)
	public void open() {
		this.client = ZooKeeperTarget.connect();
		this.locks = Library.of(library()).exclusive(this.client);
	}

	@TearDown(Level.Trial)
	public void close() {
		ZooKeeperTarget.closeAll(this.locks, this.client);
	}

	/**
	 * Take the key's lock, do nothing, release it: one operation of the workload.
	 * @param key the key
	 * @throws Exception when the library fails
	 */
	protected final void lockCycle(String key) throws Exception {
		ExclusiveLocks locks = this.locks;
		if (locks == null) {
			throw new IllegalStateException("The trial has not opened the locks");
		}
		locks.runExclusive(key, ZooKeeperTarget.NO_WORK);
	}

}
