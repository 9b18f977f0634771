package dev.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

import dev.zklock.LockMode;
import dev.zklock.leader.RaceThreads;

/**
 * A call withdrawn on its own thread while ZooKeeper's event thread grants it, explored by
 * Fray's controlled scheduler: an asynchronous call of the real {@link LockEngine} cancelled by the
 * user's thread while another thread delivers the replies that grant its key (the grant of the
 * key's node, then the local grant and its check, on the event thread). Under the engine is the
 * deterministic simulator's client and server (the model of ZooKeeper held to a real server by
 * {@code SimulatorConformanceTests}), taking requests from any thread as ZooKeeper's client does
 * ({@link QueuedPort}): they are sent by the thread that delivers the events. Whatever the order,
 * the key is not left held: once both threads are done, a call that was granted after all is
 * released as its caller would, and the next call on the key gets it.
 */
@ExtendWith(FrayTestExtension.class)
class AsyncAcquisitionFrayTests {

	/**
	 * How many interleavings the test runs.
	 */
	private static final int ITERATIONS = 2000;

	/**
	 * How many of the simulator's events the event thread runs beside the user's: enough for a
	 * call on a free key to be granted (its key's first use, the base path's containers, the use
	 * again, its read).
	 */
	private static final int STEPS_BESIDE = 12;

	/**
	 * How many are run after both threads: enough for every request to be answered.
	 */
	private static final int STEPS_AFTER = 60;

	@ConcurrencyTest(iterations = ITERATIONS)
	void aCallCancelledWhileTheEventThreadGrantsItLeavesTheKeyFree() {
		QueuedInstance instance = QueuedInstance.connected();
		SimWorld world = instance.world();
		QueuedPort port = instance.port();
		LockEngine engine = instance.engine();
		CompletableFuture<Acquisition> call = engine.acquireAsync(List.of("k"), LockMode.EXCLUSIVE,
				Duration.ofSeconds(-1), Runnable::run);
		Thread events = RaceThreads.start(() -> port.run(world, STEPS_BESIDE, () -> false));
		Thread user = RaceThreads.start(() -> call.cancel(false));
		RaceThreads.join(events, user);
		port.run(world, STEPS_AFTER, () -> false);
		if (!call.isCancelled()) {
			RaceThreads.check(call.isDone(), "a call neither cancelled nor answered");
			engine.releaseAsync(call.join());
			port.run(world, STEPS_AFTER, () -> false);
		}
		CompletableFuture<Acquisition> next = engine.acquireAsync(List.of("k"), LockMode.EXCLUSIVE,
				Duration.ofSeconds(-1), Runnable::run);
		port.run(world, STEPS_AFTER, () -> false);
		RaceThreads.check(next.isDone() && !next.isCompletedExceptionally() && next.join() != null,
				"the next call on the key is not granted: the withdrawn call's grant is still held");
	}

}
