package dev.zklock.benchmarks.workload;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

import dev.zklock.ZkLockTemplate;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.lock.LockCallListener;

/**
 * Workload 2a: many concurrent callers of one key in one JVM, asynchronous against synchronous.
 * An operation is a batch of {@value #CALLERS} calls on one key, started together, ended when
 * every one has released the lock. {@code form=async}: one thread starts them all with
 * {@code executeAsync} (no thread waits for the lock); {@code form=sync}: {@value #CALLERS}
 * pooled threads each make a blocking {@code execute} call, the baseline. Same template and
 * settings (the defaults) in both.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class AsyncOneKeyBenchmark {

	static final int CALLERS = 32;

	private static final String KEY = "async-contended";

	/** The library under test: zklock's template with its default settings. */
	@Param({ "zklock" })
	public String library = "zklock";

	/** Whether the callers are asynchronous or blocking threads. */
	@Param({ "async", "sync" })
	public String form = "async";

	private @Nullable CuratorFramework client;

	private @Nullable ZkLockTemplate template;

	private @Nullable ExecutorService callers;

	@Setup(Level.Trial)
	public void open() {
		Library library = Library.of(this.library);
		this.client = ZooKeeperTarget.connect();
		this.template = new ZkLockTemplate(this.client, library.basePath(), Library.WAIT_TIME, false,
				LockCallListener.NONE, library.lockSettings());
		this.callers = Executors.newFixedThreadPool(CALLERS);
	}

	@TearDown(Level.Trial)
	public void close() {
		ExecutorService pool = this.callers;
		if (pool != null) {
			pool.shutdownNow();
		}
		ZooKeeperTarget.closeAll(this.template, this.client);
	}

	@Benchmark
	@Threads(1)
	public void batchOfCalls() {
		ZkLockTemplate locks = this.template;
		ExecutorService pool = this.callers;
		if (locks == null || pool == null) {
			throw new IllegalStateException("The trial has not opened the template");
		}
		CompletableFuture<?>[] calls = new CompletableFuture<?>[CALLERS];
		boolean async = this.form.equals("async");
		for (int i = 0; i < CALLERS; i++) {
			calls[i] = async ? locks.executeAsync(KEY, (lock) -> CompletableFuture.completedFuture(null))
					: CompletableFuture.runAsync(() -> locks.execute(KEY, (lock) -> null), pool);
		}
		CompletableFuture.allOf(calls).join();
	}

}
