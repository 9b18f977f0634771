package dev.zklock.sample.stock;

import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code stock} table. Every write carries the fencing token of the lock it is made under,
 * and the table rejects a write whose token is lower than the one stored with the row: a late
 * write from an instance that lost its lock (a long pause, a lost session) cannot overwrite the
 * work of the instance that holds the lock now.
 */
@Repository
public class StockRepository {

	private final JdbcClient jdbc;

	public StockRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Create the table unless it exists.
	 */
	public void createTableIfMissing() {
		this.jdbc.sql("""
				create table if not exists stock (
					sku varchar(64) primary key,
					available int not null check (available >= 0),
					fence bigint not null default 0
				)""").update();
	}

	/**
	 * Create a SKU's row unless it exists.
	 * @param sku the SKU
	 * @param available its initial stock
	 * @return whether the row was created
	 */
	public boolean insertIfMissing(String sku, int available) {
		if (find(sku).isPresent()) {
			return false;
		}
		this.jdbc.sql("insert into stock (sku, available, fence) values (?, ?, 0)").params(sku, available).update();
		return true;
	}

	/**
	 * Read a SKU's row.
	 * @param sku the SKU
	 * @return the row, or empty for an unknown SKU
	 */
	public Optional<Stock> find(String sku) {
		return this.jdbc.sql("select sku, available, fence from stock where sku = ?")
			.params(sku)
			.query(Stock.class)
			.optional();
	}

	/**
	 * Return the SKUs whose stock is below a threshold.
	 * @param threshold the threshold
	 * @return the rows, by SKU
	 */
	public List<Stock> below(int threshold) {
		return this.jdbc.sql("select sku, available, fence from stock where available < ? order by sku")
			.params(threshold)
			.query(Stock.class)
			.list();
	}

	/**
	 * Stamp a SKU's row with a fencing token, unless a lock holder with a higher token has
	 * stamped it already. Once stamped, the row refuses the writes of every earlier holder.
	 * @param sku the SKU
	 * @param fencingToken the fencing token of the lock held
	 * @return whether the row was stamped; false for an unknown SKU too
	 */
	public boolean fence(String sku, long fencingToken) {
		return this.jdbc.sql("update stock set fence = ? where sku = ? and fence <= ?")
			.params(fencingToken, sku, fencingToken)
			.update() == 1;
	}

	/**
	 * Set a SKU's available stock, unless a lock holder with a higher fencing token has written
	 * the row already.
	 * @param sku the SKU
	 * @param available the new stock
	 * @param fencingToken the fencing token of the lock the write is made under
	 * @return whether the write was applied
	 */
	public boolean write(String sku, int available, long fencingToken) {
		return this.jdbc.sql("update stock set available = ?, fence = ? where sku = ? and fence <= ?")
			.params(available, fencingToken, sku, fencingToken)
			.update() == 1;
	}

}
