package dev.zklock.sample.report;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.annotation.ZkLeaderComponent;
import dev.zklock.sample.stock.Stock;
import dev.zklock.sample.stock.StockRepository;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * A leader-only component: while this instance leads the application's group, a thread of its own
 * asks the purchasing department to reorder the SKUs that sold out (here: it logs the request).
 * zklock starts it when this instance becomes the leader and stops it as soon as the leadership
 * ends, so two instances never send the same requests; the {@code zklock} endpoint shows it under
 * the group's components.
 */
@Component
@ZkLeaderComponent
public class ReorderFeed implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(ReorderFeed.class);

	private final StockRepository stock;

	private final Duration interval;

	private final AtomicInteger rounds = new AtomicInteger();

	private volatile @Nullable ScheduledExecutorService thread;

	public ReorderFeed(StockRepository stock, @Value("${inventory.report-interval:5s}") Duration interval) {
		this.stock = stock;
		this.interval = interval;
	}

	@Override
	public void start() {
		ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread feed = new Thread(task, "reorder-feed");
			feed.setDaemon(true);
			return feed;
		});
		started.scheduleWithFixedDelay(this::reorderSoldOut, 0, this.interval.toMillis(), TimeUnit.MILLISECONDS);
		this.thread = started;
		logger.info("Reorder feed started on this instance (the leader)");
	}

	@Override
	public void stop() {
		ScheduledExecutorService running = this.thread;
		this.thread = null;
		if (running != null) {
			running.shutdownNow();
			logger.info("Reorder feed stopped on this instance");
		}
	}

	@Override
	public boolean isRunning() {
		return this.thread != null;
	}

	/**
	 * Return how many rounds the feed made on this instance.
	 * @return the rounds
	 */
	public int rounds() {
		return this.rounds.get();
	}

	private void reorderSoldOut() {
		for (Stock row : this.stock.below(1)) {
			logger.info("Reorder request: " + row.sku() + " is sold out");
		}
		this.rounds.incrementAndGet();
	}

}
