package dev.zklock.sample.report;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The last low-stock report, one row that only the leader writes. Every write carries the epoch
 * of the leader's term, its fencing token, and is rejected when the row holds a larger one: a
 * former leader that paused past its term cannot overwrite the report of the leader after it.
 */
@Repository
public class LowStockReports implements InitializingBean {

	private final JdbcClient jdbc;

	public LowStockReports(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public void afterPropertiesSet() {
		this.jdbc.sql("""
				create table if not exists low_stock_report (
					id int primary key,
					epoch bigint not null,
					made_by varchar(200) not null,
					skus varchar(2000) not null,
					made_at timestamp
				)""").update();
		try {
			this.jdbc.sql("""
					insert into low_stock_report (id, epoch, made_by, skus)
					select 1, 0, '', '' where not exists (select 1 from low_stock_report where id = 1)""").update();
		}
		catch (DuplicateKeyException ex) {
			// Another instance sharing the database created it at the same time.
		}
	}

	/**
	 * Record a report, unless a leader of a later term has recorded one.
	 * @param epoch the epoch of the leader's term
	 * @param madeBy the participant id of the leader
	 * @param skus the SKUs that run low
	 * @return whether the report was recorded
	 */
	public boolean record(long epoch, String madeBy, String skus) {
		return this.jdbc.sql("""
				update low_stock_report set epoch = ?, made_by = ?, skus = ?, made_at = ?
				where id = 1 and epoch <= ?""")
			.params(epoch, madeBy, skus, Timestamp.from(Instant.now()), epoch)
			.update() == 1;
	}

	/**
	 * Return the epoch of the last report recorded.
	 * @return the epoch, or empty before the first report
	 */
	public Optional<Long> lastEpoch() {
		return this.jdbc.sql("select epoch from low_stock_report where id = 1 and epoch > 0")
			.query(Long.class)
			.optional();
	}

}
