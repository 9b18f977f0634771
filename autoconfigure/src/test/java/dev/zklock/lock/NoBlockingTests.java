package dev.zklock.lock;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ClientCnxn;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingMethod;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.zklock.LockMode;
import dev.zklock.ReactiveZkLockContext;
import dev.zklock.ReactiveZkLockTemplate;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import dev.zklock.zookeeper.CuratorPort;
import dev.zklock.zookeeper.ZooKeeperPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Reactive lock calls never block a non-blocking thread: BlockHound, installed in this test's own
 * JVM (the build runs it in a surefire execution of its own), fails any blocking call made on
 * Reactor's parallel threads, where these calls subscribe, run, and complete. Every blocking call
 * it fails is also recorded, and each test ends by failing on any but the expected ones: where
 * the error is thrown, library code may swallow it, and the only sign left would be a hang later.
 */
@EmbeddedZooKeeper
@Timeout(180)
class NoBlockingTests {

	private LockTestSupport support;

	private final List<ZkLockTemplate> templates = new ArrayList<>();

	/**
	 * The blocking calls BlockHound failed that no test made on purpose, each with its thread and
	 * stack.
	 */
	private static final List<String> unexpectedBlockingCalls = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void installBlockHound() {
		BlockHound.install(new RecordingIntegration());
	}

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.support.close();
		assertNoUnexpectedBlockingCall();
	}

	@AfterAll
	static void assertNoUnexpectedBlockingCall() {
		List<String> calls = List.copyOf(unexpectedBlockingCalls);
		unexpectedBlockingCalls.clear();
		assertThat(calls).as("blocking calls on non-blocking threads, failed where they were made").isEmpty();
	}

	@Test
	void blockHoundCatchesABlockingCallOnAParallelThread() {
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10)))
			.satisfies((ex) -> assertThat(ex).hasCauseInstanceOf(BlockingOperationError.class));
	}

	@Test
	void reactiveCallsAcquireAndReleaseWithoutBlockingANonBlockingThread() {
		List<ReactiveZkLockTemplate> instances = List.of(instance(), instance(), instance());
		int[] counter = new int[1];
		AtomicInteger inside = new AtomicInteger();
		AtomicBoolean overlap = new AtomicBoolean();
		Set<String> started = ConcurrentHashMap.newKeySet();
		Set<String> ended = ConcurrentHashMap.newKeySet();
		List<Mono<Long>> calls = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			for (ReactiveZkLockTemplate instance : instances) {
				calls.add(instance.executeMono(List.of("b", "a"), LockMode.EXCLUSIVE, null, (lock) -> {
					started.add(Thread.currentThread().getName());
					if (inside.incrementAndGet() != 1) {
						overlap.set(true);
					}
					int read = counter[0];
					return ReactiveZkLockContext.current()
						.flatMap((current) -> Mono.fromCompletionStage(current.fencingTokenAsync()))
						.delayElement(Duration.ofMillis(1))
						.doOnNext((token) -> {
							counter[0] = read + 1;
							inside.decrementAndGet();
							ended.add(Thread.currentThread().getName());
						});
				}).subscribeOn(Schedulers.parallel()));
			}
		}
		List<Long> tokens = Flux.merge(calls).collectList().block(Duration.ofSeconds(150));
		assertThat(overlap).isFalse();
		assertThat(counter[0]).isEqualTo(90);
		assertThat(tokens).hasSize(90).doesNotHaveDuplicates();
		assertThat(started).allMatch((name) -> name.startsWith("parallel-"));
		assertThat(ended).allMatch((name) -> name.startsWith("parallel-"));
		assertThat(this.templates).allMatch((template) -> template.heldLocks().isEmpty());
	}

	/**
	 * A call on a non-blocking thread finds the ZooKeeper client's queue lock taken (its send
	 * thread holds it for a moment to take a request off the queue; here the test holds it): the
	 * thread waits for it. Reported as blocking, the error would leave the lock's queue broken,
	 * so that the client's own threads, waiting on it later, never wake: the client and every
	 * call on it would hang.
	 */
	@Test
	void aCallWaitsForTheClientsQueueLockWithoutBreakingIt() throws Exception {
		CuratorFramework client = this.support.client();
		ReactiveZkLockTemplate instance = instance(client);
		ReentrantLock queueLock = queueLock(client);
		CompletableFuture<String> first;
		queueLock.lock();
		try {
			first = instance.executeMono(List.of("queue"), LockMode.EXCLUSIVE, null, (lock) -> Mono.just("first"))
				.subscribeOn(Schedulers.parallel())
				.toFuture();
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(queueLock::hasQueuedThreads);
		}
		finally {
			queueLock.unlock();
		}
		assertThat(first).succeedsWithin(Duration.ofSeconds(20)).isEqualTo("first");
		assertThat(queueLock.hasQueuedThreads()).as("threads left waiting on the queue lock").isFalse();
		String second = instance.executeMono(List.of("queue"), LockMode.EXCLUSIVE, null, (lock) -> Mono.just("second"))
			.subscribeOn(Schedulers.parallel())
			.block(Duration.ofSeconds(20));
		assertThat(second).isEqualTo("second");
	}

	/**
	 * A timer cancelled on a non-blocking thread (an asynchronous release cancels its own on the
	 * thread that completes the release) finds the lock of the scheduler's queue taken (the
	 * scheduler's thread holds it for a moment to take a task; here the test holds it): the thread
	 * waits for it. Reported as blocking, the error would leave the lock's queue broken, so that
	 * the scheduler's thread, every timer of the lock core and the template's close would hang.
	 */
	@Test
	void aTimerCancelledOnANonBlockingThreadWaitsForTheSchedulersQueueLockWithoutBreakingIt() throws Exception {
		ScheduledThreadPoolExecutor scheduler = (ScheduledThreadPoolExecutor) LockScheduler.create();
		ReentrantLock queueLock = queueLock(scheduler);
		try {
			CuratorPort port = new CuratorPort(this.support.client(), scheduler);
			ZooKeeperPort.Timer timer = port.schedule(() -> {
			}, TimeUnit.MINUTES.toNanos(1));
			// The timer starts the scheduler's thread: let it take the queue's lock and wait for
			// the timer's minute first, so that the only thread that can queue for the lock below
			// is the cancelling one (a thread still starting would queue behind the test's hold
			// and leave the queue a moment after the test lets go).
			Condition available = conditionOf(scheduler.getQueue().getClass(), scheduler.getQueue());
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> waiters(queueLock, available) == 1);
			AtomicReference<Thread> cancelling = new AtomicReference<>();
			CompletableFuture<Void> cancelled;
			queueLock.lock();
			try {
				cancelled = Mono.<Void>fromRunnable(() -> {
					cancelling.set(Thread.currentThread());
					timer.cancel();
				}).subscribeOn(Schedulers.parallel()).toFuture();
				Awaitility.await()
					.atMost(Duration.ofSeconds(10))
					.until(() -> cancelling.get() != null && queueLock.hasQueuedThread(cancelling.get()));
			}
			finally {
				queueLock.unlock();
			}
			assertThat(cancelled).succeedsWithin(Duration.ofSeconds(10));
			assertThat(queueLock.hasQueuedThreads()).as("threads left waiting on the queue lock").isFalse();
			assertThat(scheduler.getQueue()).as("the cancelled timer left the queue").isEmpty();
			CompletableFuture<String> ran = new CompletableFuture<>();
			port.schedule(() -> ran.complete("ran"), 0);
			assertThat(ran).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("ran");
		}
		finally {
			if (!queueLock.hasQueuedThreads()) {
				// Else the lock is broken and the shutdown would wait on it forever: the test
				// failed above.
				scheduler.shutdownNow();
			}
		}
	}

	private ReactiveZkLockTemplate instance() {
		return instance(this.support.client());
	}

	private ReactiveZkLockTemplate instance(CuratorFramework client) {
		ZkLockTemplate template = this.support.template(client, false);
		// Every continuation of the template runs on Reactor's non-blocking threads, where
		// BlockHound watches.
		template.setAsyncExecutor((task) -> Schedulers.parallel().schedule(task));
		this.templates.add(template);
		return new ReactiveZkLockTemplate(template);
	}

	/**
	 * Return the lock of a scheduler's queue of tasks.
	 */
	private static ReentrantLock queueLock(ScheduledThreadPoolExecutor scheduler) throws Exception {
		return lockOf(scheduler.getQueue().getClass(), scheduler.getQueue());
	}

	/**
	 * Return the lock of the client's queue of requests to send.
	 */
	private static ReentrantLock queueLock(CuratorFramework client) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		Field cnxn = ZooKeeper.class.getDeclaredField("cnxn");
		cnxn.setAccessible(true);
		Field outgoing = ClientCnxn.class.getDeclaredField("outgoingQueue");
		outgoing.setAccessible(true);
		return lockOf(LinkedBlockingDeque.class, outgoing.get(cnxn.get(zooKeeper)));
	}

	/**
	 * Return the lock that guards a queue of the JDK's: its field {@code lock}, declared by the
	 * given class.
	 */
	/**
	 * Return the condition on which a thread of a queue of the JDK's waits for an element: its
	 * field {@code available}, declared by the given class.
	 */
	private static Condition conditionOf(Class<?> declaring, Object queue) throws Exception {
		Field available = declaring.getDeclaredField("available");
		available.setAccessible(true);
		return (Condition) available.get(queue);
	}

	/**
	 * Return how many threads wait on a condition of the lock.
	 */
	private static int waiters(ReentrantLock lock, Condition condition) {
		lock.lock();
		try {
			return lock.getWaitQueueLength(condition);
		}
		finally {
			lock.unlock();
		}
	}

	private static ReentrantLock lockOf(Class<?> declaring, Object queue) throws Exception {
		Field lock = declaring.getDeclaredField("lock");
		lock.setAccessible(true);
		return (ReentrantLock) lock.get(queue);
	}

	/**
	 * Fails a blocking call as BlockHound does, after recording it unless a test makes it on
	 * purpose or a class initializer does (a class's first use reads its jar once, wherever that
	 * happens).
	 */
	static final class RecordingIntegration implements BlockHoundIntegration {

		@Override
		public void applyTo(BlockHound.Builder builder) {
			builder.blockingMethodCallback((method) -> {
				StackTraceElement[] stack = new Throwable().getStackTrace();
				if (!expected(stack)) {
					unexpectedBlockingCalls.add(describe(method, stack));
				}
				throw new BlockingOperationError(method);
			});
		}

		private static boolean expected(StackTraceElement[] stack) {
			for (StackTraceElement frame : stack) {
				if (frame.getMethodName().equals("<clinit>")
						|| frame.getMethodName().contains("blockHoundCatchesABlockingCallOnAParallelThread")) {
					return true;
				}
			}
			return false;
		}

		private static String describe(BlockingMethod method, StackTraceElement[] stack) {
			StringBuilder description = new StringBuilder(method + " on " + Thread.currentThread().getName());
			for (int i = 0; i < Math.min(stack.length, 40); i++) {
				description.append("\n\tat ").append(stack[i]);
			}
			return description.toString();
		}

	}

}
