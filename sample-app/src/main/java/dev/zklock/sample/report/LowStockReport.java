package dev.zklock.sample.report;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.LeadershipRevokedEvent;
import dev.zklock.ZkLeaderContext;
import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.sample.InventoryProperties;
import dev.zklock.sample.stock.Stock;
import dev.zklock.sample.stock.StockRepository;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A report of the SKUs that run low, made every few seconds by one instance only: the leader
 * of the application's group ({@code spring.application.name}). The other instances skip it.
 * The report is recorded with the epoch of the leader's term as its fencing token
 * ({@link LowStockReports}).
 */
@Component
public class LowStockReport {

	private static final Log logger = LogFactory.getLog(LowStockReport.class);

	private final StockRepository stock;

	private final ZkLeadership leadership;

	private final LowStockReports reports;

	private final int threshold;

	private final AtomicInteger runs = new AtomicInteger();

	private volatile @Nullable Instant lastRun;

	public LowStockReport(StockRepository stock, ZkLeadership leadership, LowStockReports reports,
			InventoryProperties properties) {
		this.stock = stock;
		this.leadership = leadership;
		this.reports = reports;
		this.threshold = properties.getLowStockThreshold();
	}

	/**
	 * Log the SKUs below the threshold, on the leader only.
	 */
	@ZkLeader
	@Scheduled(fixedDelayString = "${inventory.report-interval:5s}")
	public void run() {
		List<Stock> low = this.stock.below(this.threshold);
		String skus = low.isEmpty() ? "none"
				: low.stream().map((row) -> row.sku() + "=" + row.available()).collect(Collectors.joining(", "));
		// The epoch of this term fences the write: a former leader's late write is rejected.
		LeaderTerm term = ZkLeaderContext.current();
		if (!this.reports.record(term.epoch(), this.leadership.participantId(), skus)) {
			logger.warn("Low-stock report of epoch " + term.epoch() + " rejected: a later leader has written one");
			return;
		}
		logger.info("Low-stock report by " + this.leadership.participantId() + " (epoch " + term.epoch()
				+ "): SKUs below " + this.threshold + ": " + skus);
		this.runs.incrementAndGet();
		this.lastRun = Instant.now();
	}

	@EventListener
	void granted(LeadershipGrantedEvent event) {
		logger.info(event.getParticipantId() + " takes over the low-stock report (group '" + event.getGroup()
				+ "', epoch " + event.getEpoch() + ")");
	}

	@EventListener
	void revoked(LeadershipRevokedEvent event) {
		logger.info(event.getParticipantId() + " no longer runs the low-stock report (group '" + event.getGroup()
				+ "', epoch " + event.getEpoch() + ")");
	}

	/**
	 * Return how many times this instance has made the report.
	 * @return the number of runs
	 */
	public int runs() {
		return this.runs.get();
	}

	/**
	 * Return when this instance last made the report.
	 * @return the time, or {@code null} if it never did
	 */
	public @Nullable Instant lastRun() {
		return this.lastRun;
	}

}
