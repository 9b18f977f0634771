package dev.zklock.sample;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the inventory service.
 */
@ConfigurationProperties("inventory")
public class InventoryProperties {

	/**
	 * Stock each SKU starts with; a SKU is created when the database has no row for it yet.
	 */
	private Map<String, Integer> initialStock = new LinkedHashMap<>();

	/**
	 * Stock level below which a SKU appears in the low-stock report.
	 */
	private int lowStockThreshold = 10;

	/**
	 * Time a reservation spends between reading and writing the stock, as real work would. It
	 * makes the races that the lock prevents visible.
	 */
	private Duration simulatedWork = Duration.ZERO;

	public Map<String, Integer> getInitialStock() {
		return this.initialStock;
	}

	public void setInitialStock(Map<String, Integer> initialStock) {
		this.initialStock = initialStock;
	}

	public int getLowStockThreshold() {
		return this.lowStockThreshold;
	}

	public void setLowStockThreshold(int lowStockThreshold) {
		this.lowStockThreshold = lowStockThreshold;
	}

	public Duration getSimulatedWork() {
		return this.simulatedWork;
	}

	public void setSimulatedWork(Duration simulatedWork) {
		this.simulatedWork = simulatedWork;
	}

}
