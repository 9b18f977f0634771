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

import dev.zklock.ZkLockTemplate;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.lock.LockCallListener;

/**
 * Workload 1k: another instance takes a key that an idle instance keeps. Two instances of
 * zklock in this JVM, each with its own client and session: the keeper, which keeps idle locks
 * ({@code library}'s settings), and the taker, with the default settings (nothing kept). Before
 * each operation, outside its time, the keeper takes and releases a key and keeps it, and one
 * read on its session makes sure its watch on the key is set. The operation is one lock cycle
 * of the taker: {@code key=kept} on the key the keeper keeps, which the keeper gives up when it
 * sees the taker's node; {@code key=free} on a key nobody holds (the keeper keeps another), the
 * baseline.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class KeptKeyTakenBenchmark {

	private static final String KEPT_KEY = "kept";

	private static final String FREE_KEY = "free";

	private static final String KEEPERS_OTHER_KEY = "kept-elsewhere";

	/** The settings of the keeping instance: a zklock library that keeps idle locks. */
	@Param({ "zklock-keep" })
	public String library = "zklock-keep";

	/** Whether the taker's key is kept by the other instance or free. */
	@Param({ "kept", "free" })
	public String key = "kept";

	private @Nullable CuratorFramework keeperClient;

	private @Nullable CuratorFramework takerClient;

	private @Nullable ZkLockTemplate keeper;

	private @Nullable ZkLockTemplate taker;

	@Setup(Level.Trial)
	public void open() {
		Library keeping = Library.of(this.library);
		if (!keeping.lockSettings().keeps()) {
			throw new IllegalStateException(keeping.label() + " keeps no idle lock: " + keeping.lockSettings());
		}
		this.keeperClient = ZooKeeperTarget.connect();
		this.takerClient = ZooKeeperTarget.connect();
		this.keeper = new ZkLockTemplate(this.keeperClient, keeping.basePath(), Library.WAIT_TIME, false,
				LockCallListener.NONE, keeping.lockSettings());
		this.taker = new ZkLockTemplate(this.takerClient, keeping.basePath(), Library.WAIT_TIME, false,
				LockCallListener.NONE, Library.ZKLOCK.lockSettings());
	}

	@Setup(Level.Invocation)
	public void keepAKey() throws Exception {
		ZkLockTemplate keeper = opened(this.keeper);
		String kept = this.key.equals("kept") ? KEPT_KEY : KEEPERS_OTHER_KEY;
		keeper.execute(kept, (lock) -> null);
		opened(this.keeperClient).checkExists().forPath("/");
		if (keeper.keptLocks().stream().noneMatch((info) -> info.key().equals(kept))) {
			throw new IllegalStateException("The keeper did not keep " + kept + ": " + keeper.keptLocks());
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		ZooKeeperTarget.closeAll(this.taker, this.keeper, this.takerClient, this.keeperClient);
	}

	@Benchmark
	@Threads(1)
	public void oneThread() {
		opened(this.taker).execute(this.key.equals("kept") ? KEPT_KEY : FREE_KEY, (lock) -> null);
	}

	private static <T> T opened(@Nullable T resource) {
		if (resource == null) {
			throw new IllegalStateException("The trial has not opened the instances");
		}
		return resource;
	}

}
