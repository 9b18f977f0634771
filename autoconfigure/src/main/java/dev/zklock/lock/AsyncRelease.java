package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Ends the grants of an asynchronous call without blocking, and tells when their nodes are gone.
 */
final class AsyncRelease {

	private AsyncRelease() {
	}

	/**
	 * Release the grants in reverse order.
	 * @return completed once the server deleted every node these releases gave up (at most two
	 * seconds, after which the deletes go on in the background)
	 */
	static CompletableFuture<@Nullable Void> release(List<Hold> holds) {
		List<CompletableFuture<Void>> deletes = new ArrayList<>();
		ZooKeeperPort port = null;
		for (int i = holds.size() - 1; i >= 0; i--) {
			Hold hold = holds.get(i);
			KeyLock keyLock = hold.keyLock();
			if (keyLock == null) {
				throw new IllegalStateException("An asynchronous call holds a node of its own on key '" + hold.key() + "'");
			}
			port = keyLock.port();
			CompletableFuture<Void> deleted = keyLock.release(hold);
			if (deleted != null) {
				deletes.add(deleted);
			}
		}
		if (deletes.isEmpty()) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<@Nullable Void> all = CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new));
		ZooKeeperPort.Timer timer = port.schedule(() -> all.complete(null),
				TimeUnit.MILLISECONDS.toNanos(LockRecipe.RELEASE_WAIT_MILLIS));
		all.whenComplete((done, ex) -> timer.cancel());
		return all;
	}

}
