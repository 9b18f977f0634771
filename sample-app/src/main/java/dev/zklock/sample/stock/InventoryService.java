package dev.zklock.sample.stock;

import java.time.Duration;
import java.util.Optional;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ReactiveZkLockContext;
import dev.zklock.ZkLockContext;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.sample.InventoryProperties;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.stereotype.Service;

/**
 * Stock operations, each under the SKU's lock, so that instances of the service never work on
 * the same SKU at once. Every write passes the lock's fencing token to the database.
 */
@Service
public class InventoryService {

	/**
	 * How long a restock waits for the SKU's lock.
	 */
	public static final String RESTOCK_WAIT = "2s";

	private final StockRepository stock;

	private final InventoryProperties properties;

	public InventoryService(StockRepository stock, InventoryProperties properties) {
		this.stock = stock;
		this.properties = properties;
	}

	/**
	 * Reserve units of a SKU: read the stock, check it, write it back, all under the SKU's
	 * exclusive lock, waiting for it up to {@code inventory.reserve-wait} (10 seconds by
	 * default).
	 * @param sku the SKU
	 * @param quantity the units to reserve
	 * @return the reservation
	 */
	@ZkLocked(key = "'stock:' + #sku", waitTime = "${inventory.reserve-wait:10s}")
	public Reservation reserve(String sku, int quantity) {
		return reserve(sku, quantity, ZkLockContext.current());
	}

	/**
	 * Reserve units of a SKU, like {@link #reserve(String, int)}, reactively: the lock is asked
	 * for on subscription without blocking a thread, and released when the {@code Mono}
	 * completes. The lock comes from the Reactor context; the JDBC work, which blocks, runs on
	 * Reactor's bounded elastic threads.
	 * @param sku the SKU
	 * @param quantity the units to reserve
	 * @return the reservation
	 */
	@ZkLocked(key = "'stock:' + #sku", waitTime = "${inventory.reserve-wait:10s}")
	public Mono<Reservation> reserveReactive(String sku, int quantity) {
		return ReactiveZkLockContext.current()
			.publishOn(Schedulers.boundedElastic())
			.map((lock) -> reserve(sku, quantity, lock));
	}

	private Reservation reserve(String sku, int quantity, HeldLock lock) {
		Stock current = claim(sku, lock);
		if (current.available() < quantity) {
			throw new InsufficientStockException(sku, quantity, current.available());
		}
		simulateWork();
		write(sku, current.available() - quantity, lock);
		return new Reservation(sku, quantity, current.available() - quantity, lock.fencingToken());
	}

	/**
	 * Read a SKU's stock under a shared lock: reads run together, never during a write.
	 * @param sku the SKU
	 * @return the stock
	 */
	@ZkLocked(key = "'stock:' + #sku", mode = LockMode.SHARED)
	public Stock stock(String sku) {
		return read(sku);
	}

	/**
	 * Add units, waiting at most 2 seconds for the lock, and failing with
	 * {@link dev.zklock.LockTimeoutException} when it is not obtained in time.
	 * @param sku the SKU
	 * @param quantity the units to add
	 * @return the new stock
	 */
	@ZkLocked(key = "'stock:' + #sku", waitTime = RESTOCK_WAIT, onTimeout = OnLockTimeout.THROW)
	public Stock restock(String sku, int quantity) {
		return add(sku, quantity);
	}

	/**
	 * Add units, waiting at most 2 seconds for the lock, and doing nothing when it is not
	 * obtained in time.
	 * @param sku the SKU
	 * @param quantity the units to add
	 * @return the new stock, or empty when the lock was not obtained in time
	 */
	@ZkLocked(key = "'stock:' + #sku", waitTime = RESTOCK_WAIT, onTimeout = OnLockTimeout.SKIP)
	public Optional<Stock> restockIfFree(String sku, int quantity) {
		return Optional.of(add(sku, quantity));
	}

	/**
	 * Count a SKU's shelf: a long operation that holds the SKU's exclusive lock throughout, so
	 * that nothing changes the stock meanwhile.
	 * @param sku the SKU
	 * @param duration how long the count takes
	 * @return the stock
	 * @throws InterruptedException if interrupted while counting
	 */
	@ZkLocked(key = "'stock:' + #sku")
	public Stock stocktake(String sku, Duration duration) throws InterruptedException {
		Stock current = read(sku);
		Thread.sleep(duration.toMillis());
		return current;
	}

	private Stock add(String sku, int quantity) {
		HeldLock lock = ZkLockContext.current();
		Stock current = claim(sku, lock);
		int available = Math.addExact(current.available(), quantity);
		write(sku, available, lock);
		return new Stock(sku, available, lock.fencingToken());
	}

	private Stock read(String sku) {
		return this.stock.find(sku).orElseThrow(() -> new UnknownSkuException(sku));
	}

	/**
	 * Stamp the row with our fencing token, then read it. From then on the database refuses
	 * the writes of every earlier holder of the lock, so what we read stays true until we
	 * write.
	 */
	private Stock claim(String sku, HeldLock lock) {
		if (!this.stock.fence(sku, lock.fencingToken())) {
			read(sku);
			throw new StaleFencingTokenException(sku, lock.fencingToken());
		}
		return read(sku);
	}

	/**
	 * Write under the lock: the database applies the write only if no later holder of the
	 * lock has stamped the row.
	 */
	private void write(String sku, int available, HeldLock lock) {
		lock.ensureValid(); // cheap, and narrows the window; the fencing token closes it
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
