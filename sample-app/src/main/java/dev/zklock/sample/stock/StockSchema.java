package dev.zklock.sample.stock;

import java.util.Map;

import dev.zklock.LockLostException;
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

	private static final int MAX_ATTEMPTS = 3;

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
		for (int attempt = 1;; attempt++) {
			try {
				this.locks.execute("inventory-schema", (lock) -> {
					create();
					return null;
				});
				return;
			}
			catch (LockLostException ex) {
				// The lock was in doubt when the work ended (a connection blip); the work is
				// idempotent, so do it again under a new lock.
				if (attempt == MAX_ATTEMPTS) {
					throw ex;
				}
				logger.warn("Creating the stock table again: " + ex.getMessage());
			}
		}
	}

	private void create() {
		this.stock.createTableIfMissing();
		for (Map.Entry<String, Integer> initial : this.properties.getInitialStock().entrySet()) {
			if (this.stock.insertIfMissing(initial.getKey(), initial.getValue())) {
				logger.info("Created " + initial.getKey() + " with " + initial.getValue() + " units");
			}
		}
	}

}
