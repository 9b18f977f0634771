package dev.zklock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.BaseClassForTests;
import org.apache.curator.utils.CloseableUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.zklock.LockMode;
import dev.zklock.ReleasableLock;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockNodeNames;
import dev.zklock.lock.LockSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * zklock instances naming their nodes as Curator's {@code InterProcessMutex} names its own
 * ({@code zklock.lock.node-names=mutex}) and Curator's mutex on the same path, each on sessions
 * of its own against a real server: they exclude each other in both directions, zklock's shared
 * holders included, and zklock's kept locks and handoff give way to a waiting mutex. Spring
 * Integration's {@code ZookeeperLockRegistry} is an {@code InterProcessMutex} per key under
 * {@code /SpringIntegration-LockRegistry}: a template with that base path is the same case.
 */
class CuratorMutexNamesTests extends BaseClassForTests {

	private static final String BASE = "/SpringIntegration-LockRegistry";

	private static final LockSettings MUTEX = LockSettings.DEFAULTS.withNodeNames(LockNodeNames.MUTEX);

	private final List<AutoCloseable> closing = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (int i = this.closing.size() - 1; i >= 0; i--) {
			this.closing.get(i).close();
		}
	}

	@Test
	void zklockAndCuratorsMutexExcludeEachOtherInBothDirections() throws Exception {
		ZkLockTemplate zklock = template(MUTEX);
		InterProcessMutex mutex = new InterProcessMutex(client(), BASE + "/orders");
		ReleasableLock held = zklock.acquire("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(held).isNotNull();
		assertThat(mutex.acquire(300, TimeUnit.MILLISECONDS)).isFalse();
		held.release();
		assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
		assertThat(zklock.acquire("orders", LockMode.EXCLUSIVE, Duration.ofMillis(300))).isNull();
		assertThat(zklock.acquire("orders", LockMode.SHARED, Duration.ofMillis(300))).isNull();
		mutex.release();
		ReleasableLock shared = zklock.acquire("orders", LockMode.SHARED, Duration.ofSeconds(10));
		assertThat(shared).isNotNull();
		assertThat(mutex.acquire(300, TimeUnit.MILLISECONDS)).isFalse();
		shared.release();
		assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
		mutex.release();
	}

	@Test
	void withTheDefaultNamesCuratorsMutexDoesNotSeeZklocksHolder() throws Exception {
		ZkLockTemplate zklock = template(LockSettings.DEFAULTS);
		InterProcessMutex mutex = new InterProcessMutex(client(), BASE + "/orders");
		ReleasableLock held = zklock.acquire("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(held).isNotNull();
		assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
		mutex.release();
		held.release();
	}

	@Test
	void aKeptLockAndALocalHandoffGiveWayToAWaitingMutex() throws Exception {
		ZkLockTemplate zklock = template(new LockSettings(true, 4, Duration.ofMillis(100), Duration.ofMinutes(1), 10)
			.withNodeNames(LockNodeNames.MUTEX));
		InterProcessMutex mutex = new InterProcessMutex(client(), BASE + "/orders");
		zklock.execute("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(10), (lock) -> null);
		assertThat(zklock.keptLocks()).hasSize(1);
		assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
		assertThat(zklock.keptLocks()).isEmpty();
		mutex.release();
		// Local callers passing the key to each other hand it over within the handoff bound.
		AtomicInteger local = new AtomicInteger();
		ExecutorService callers = Executors.newFixedThreadPool(3);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				running.add(callers.submit(() -> {
					for (int n = 0; n < 200 && !Thread.currentThread().isInterrupted(); n++) {
						zklock.execute("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(30), (lock) -> {
							Thread.sleep(1);
							return local.incrementAndGet();
						});
					}
					return null;
				}));
			}
			while (local.get() < 10) {
				Thread.sleep(5);
			}
			assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
			mutex.release();
			for (Future<?> caller : running) {
				caller.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			callers.shutdownNow();
		}
	}

	@Test
	void twoZklockInstancesAndTwoMutexClientsOnOneKeyNeverOverlapAndEachMakesProgress() throws Exception {
		Sections sections = new Sections();
		List<ZkLockTemplate> instances = List.of(template(MUTEX), template(MUTEX));
		List<CuratorFramework> mutexClients = List.of(client(), client());
		ExecutorService threads = Executors.newFixedThreadPool(10);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (ZkLockTemplate instance : instances) {
				for (int t = 0; t < 3; t++) {
					LockMode mode = (t == 0) ? LockMode.SHARED : LockMode.EXCLUSIVE;
					running.add(threads.submit(() -> {
						for (int n = 0; n < 25; n++) {
							instance.execute("orders", mode, Duration.ofSeconds(60), (lock) -> {
								sections.enter(mode, sections.zklock);
								return null;
							});
						}
						return null;
					}));
				}
			}
			for (CuratorFramework mutexClient : mutexClients) {
				for (int t = 0; t < 2; t++) {
					InterProcessMutex mutex = new InterProcessMutex(mutexClient, BASE + "/orders");
					running.add(threads.submit(() -> {
						for (int n = 0; n < 25; n++) {
							assertThat(mutex.acquire(60, TimeUnit.SECONDS)).isTrue();
							try {
								sections.enter(LockMode.EXCLUSIVE, sections.curator);
							}
							finally {
								mutex.release();
							}
						}
						return null;
					}));
				}
			}
			for (Future<?> thread : running) {
				thread.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(sections.overlaps).hasValue(0);
		assertThat(sections.counter).isEqualTo(sections.writes.get());
		assertThat(sections.zklock).hasValue(2 * 3 * 25);
		assertThat(sections.curator).hasValue(2 * 2 * 25);
	}

	private ZkLockTemplate template(LockSettings settings) {
		ZkLockTemplate template = new ZkLockTemplate(client(), BASE, Duration.ofSeconds(10), false,
				LockCallListener.NONE, settings);
		this.closing.add(template);
		return template;
	}

	private CuratorFramework client() {
		CuratorFramework client = CuratorFrameworkFactory.newClient(this.server.getConnectString(), new RetryOneTime(1));
		client.start();
		this.closing.add(() -> CloseableUtils.closeQuietly(client));
		return client;
	}

	/**
	 * Critical sections of both sides: a writer increments a counter by reading it, sleeping
	 * and writing it back (an overlap loses an update), and every section looks for one of the
	 * other kind inside at its start and its end.
	 */
	private static final class Sections {

		final AtomicInteger writers = new AtomicInteger();

		final AtomicInteger readers = new AtomicInteger();

		final AtomicInteger overlaps = new AtomicInteger();

		final AtomicInteger writes = new AtomicInteger();

		final AtomicInteger zklock = new AtomicInteger();

		final AtomicInteger curator = new AtomicInteger();

		volatile int counter;

		void enter(LockMode mode, AtomicInteger side) throws InterruptedException {
			boolean writer = (mode == LockMode.EXCLUSIVE);
			AtomicInteger inside = writer ? this.writers : this.readers;
			inside.incrementAndGet();
			try {
				check(writer);
				if (writer) {
					int value = this.counter;
					Thread.sleep(1);
					this.counter = value + 1;
					this.writes.incrementAndGet();
				}
				else {
					Thread.sleep(1);
				}
				check(writer);
				side.incrementAndGet();
			}
			finally {
				inside.decrementAndGet();
			}
		}

		private void check(boolean writer) {
			boolean overlap = writer ? (this.writers.get() != 1 || this.readers.get() != 0) : this.writers.get() != 0;
			if (overlap) {
				this.overlaps.incrementAndGet();
			}
		}

	}

}
