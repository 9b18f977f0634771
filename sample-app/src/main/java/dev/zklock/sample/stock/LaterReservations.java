package dev.zklock.sample.stock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.zklock.HeldLock;
import dev.zklock.ZkLockContext;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.sample.InventoryProperties;

import org.springframework.stereotype.Service;

/**
 * Reservations whose work goes on after the method returns: the method returns a
 * {@code CompletableFuture}, and the SKU's lock is held until that future completes, with no
 * thread waiting for it meanwhile. The body stamps the row with the lock's fencing token; a later
 * stage, on a thread of {@link StockStages}, writes the new stock with the lock that Context
 * Propagation carried there.
 */
@Service
public class LaterReservations {

	private final StockRepository stock;

	private final StockStages stages;

	private final InventoryProperties properties;

	LaterReservations(StockRepository stock, StockStages stages, InventoryProperties properties) {
		this.stock = stock;
		this.stages = stages;
		this.properties = properties;
	}

	/**
	 * Reserve units of a SKU under its exclusive lock, as
	 * {@link InventoryService#reserve(String, int)} does, in two steps on two threads.
	 * @param sku the SKU
	 * @param quantity the units to reserve
	 * @return the reservation, once the lock is released
	 */
	@ZkLocked(key = "'stock:' + #sku", waitTime = "${inventory.reserve-wait:10s}")
	public CompletableFuture<LaterReservation> reserve(String sku, int quantity) {
		// The body runs once the lock is held, on the lock template's executor, and sees it.
		HeldLock lock = ZkLockContext.current();
		Stock claimed = claim(sku, lock.fencingToken());
		if (claimed.available() < quantity) {
			throw new InsufficientStockException(sku, quantity, claimed.available());
		}
		LockSeen body = LockSeen.of(lock);
		// The later stage runs on another thread, still under the lock: the propagating executor
		// gives it the body's context, so ZkLockContext sees the same lock there.
		return CompletableFuture.completedFuture(claimed).thenApplyAsync((read) -> {
			HeldLock later = ZkLockContext.current();
			int available = read.available() - quantity;
			simulateWork();
			write(sku, available, later);
			return new LaterReservation(sku, quantity, available, body, LockSeen.of(later), null);
		}, this.stages.executor());
	}

	/**
	 * Stamp the row with the fencing token, then read it: from then on the database refuses the
	 * writes of every earlier holder of the lock.
	 */
	private Stock claim(String sku, long fencingToken) {
		if (!this.stock.fence(sku, fencingToken)) {
			this.stock.find(sku).orElseThrow(() -> new UnknownSkuException(sku));
			throw new StaleFencingTokenException(sku, fencingToken);
		}
		return this.stock.find(sku).orElseThrow(() -> new UnknownSkuException(sku));
	}

	/**
	 * Write with the lock's token: the database applies it only if no later holder of the lock
	 * has stamped the row.
	 */
	private void write(String sku, int available, HeldLock lock) {
		lock.ensureValid();
		if (!this.stock.write(sku, available, lock.fencingToken())) {
			throw new StaleFencingTokenException(sku, lock.fencingToken());
		}
	}

	private void simulateWork() {
		Duration work = this.properties.getSimulatedWork();
		if (!work.isZero()) {
			try {
				Thread.sleep(work.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while reserving", ex);
			}
		}
	}

}
