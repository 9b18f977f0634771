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
 * A holder releasing on its own thread while ZooKeeper's event thread grants its key again,
 * explored by Fray's controlled scheduler over the real {@link LockEngine}: a call holds the
 * key, a second call of the same instance waits for it, and the session ends. The event thread
 * delivers the loss, the new session and the new node that the waiting call is granted, while
 * the first call's thread releases its lost hold. Whatever the order, the release of the lost
 * hold frees nothing of the new grant: a third call waits until the second releases, and then
 * gets the key. Under the engine is the deterministic simulator's client and server (held to a
 * real server by {@code SimulatorConformanceTests}), taking requests from any thread as
 * ZooKeeper's client does ({@link QueuedPort}).
 */
@ExtendWith(FrayTestExtension.class)
class LostHoldReleaseFrayTests {

	private static final int ITERATIONS = 2000;

	/**
	 * The most events a wait for an answer runs: far more than a grant takes, session loss
	 * included.
	 */
	private static final int MOST_STEPS = 2000;

	/**
	 * How many events run while the third call waits: enough for it to be granted if the key
	 * looked free.
	 */
	private static final int STEPS_WAITING = 200;

	@ConcurrencyTest(iterations = ITERATIONS)
	void aLostHoldReleasedWhileTheKeyIsGrantedAgainFreesNothingOfTheNewGrant() {
		QueuedInstance instance = QueuedInstance.connected();
		SimWorld world = instance.world();
		QueuedPort port = instance.port();
		LockEngine engine = instance.engine();
		CompletableFuture<Acquisition> first = acquire(engine);
		port.run(world, MOST_STEPS, first::isDone);
		RaceThreads.check(first.join() != null, "the first call was not granted");
		CompletableFuture<Acquisition> second = acquire(engine);
		port.run(world, 20, () -> false);
		RaceThreads.check(!second.isDone(), "the second call was granted beside the first");
		// Only this thread touches the simulator until the two threads start.
		instance.client().expireSession();
		Thread events = RaceThreads.start(() -> port.run(world, MOST_STEPS, second::isDone));
		Thread holder = RaceThreads.start(() -> engine.releaseAsync(first.join()));
		RaceThreads.join(events, holder);
		port.run(world, MOST_STEPS, second::isDone);
		RaceThreads.check(second.isDone() && second.join() != null, "the waiting call was not granted");
		CompletableFuture<Acquisition> third = acquire(engine);
		port.run(world, STEPS_WAITING, third::isDone);
		Hold held = second.join().holds().get(0);
		RaceThreads.check(!third.isDone() || held.lock().state() == ActiveLock.State.LOST,
				"a third call was granted while the second holds the key: " + describe(held) + ", "
						+ (third.isDone() ? describe(third.join().holds().get(0)) : "-"));
		engine.releaseAsync(second.join());
		port.run(world, MOST_STEPS, third::isDone);
		RaceThreads.check(third.isDone() && third.join() != null,
				"the third call was not granted once the second released");
	}

	private static String describe(Hold hold) {
		return hold.lock().node().path() + " " + hold.lock().state();
	}

	private static CompletableFuture<Acquisition> acquire(LockEngine engine) {
		return engine.acquireAsync(List.of("k"), LockMode.EXCLUSIVE, Duration.ofSeconds(-1), Runnable::run);
	}

}
