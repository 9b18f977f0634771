package dev.zklock.woven;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.ZkLockContext;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The precedence of the woven lock aspect over Spring's woven transaction aspect: as in proxy
 * mode, the lock is held from before the transaction begins until after it commits.
 */
@EmbeddedZooKeeper
class WovenTransactionOrderTests {

	@Test
	void theLockIsHeldWhenTheTransactionBeginsAndCommits(ZooKeeperTestServer server) {
		WovenLockTests.instance(server, "aspectj", new UnsafeCounter())
			.withUserConfiguration(WovenTransactions.class)
			.withBean(Ledger.class)
			.run((context) -> {
				RecordingTransactionManager transactions = context.getBean(RecordingTransactionManager.class);
				context.getBean(Ledger.class).post();
				context.getBean(Ledger.class).postThroughSelf();
				assertThat(transactions.events).containsExactly("begin, lock held", "commit, lock held",
						"begin, lock held", "commit, lock held");
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(mode = AdviceMode.ASPECTJ)
	static class WovenTransactions {

		@Bean
		RecordingTransactionManager transactionManager() {
			return new RecordingTransactionManager();
		}

	}

	/**
	 * Records whether the ledger's lock is held when a transaction begins and commits.
	 */
	static class RecordingTransactionManager extends AbstractPlatformTransactionManager {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			record("begin");
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
			record("commit");
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
			record("rollback");
		}

		private void record(String event) {
			this.events.add(event + ", " + (ZkLockContext.find(Ledger.KEY).isPresent() ? "lock held" : "no lock"));
		}

	}

}
