package dev.zklock.sample.stock;

import java.util.Map;

import dev.zklock.ZkLockTemplate;
import dev.zklock.sample.InventoryProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * Creates the {@code stock} table and the initial stock at startup, before the application
 * takes requests. Several instances may start at once against one database, so they do it one
 * at a time, under a lock taken with the programmatic {@link ZkLockTemplate}.
 */
@Component
class StockSchema implements InitializingBean {

	private static final Log logger = LogFactory.getLog(StockSchema.class);

	private final ZkLockTemplate locks;

	private final StockRepository stock;

	private final InventoryProperties properties;

	StockSchema(ZkLockTemplate locks, StockRepository stock, InventoryProperties properties) {
		this.locks = locks;
		this.stock = stock;
		this.properties = properties;
	}

	@Override
	public void afterPropertiesSet() {
		this.locks.execute("inventory-schema", (lock) -> {
			this.stock.createTableIfMissing();
			for (Map.Entry<String, Integer> initial : this.properties.getInitialStock().entrySet()) {
				if (this.stock.insertIfMissing(initial.getKey(), initial.getValue())) {
					logger.info("Created " + initial.getKey() + " with " + initial.getValue() + " units");
				}
			}
			return null;
		});
	}

}
