package dev.zklock.lock.aop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.ZkLockContext;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import dev.zklock.test.ZooKeeperTestServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.SimpleTransactionStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the lock advice runs relative to {@code @Transactional}: by default the lock is taken
 * before the transaction begins and released after it commits.
 */
@EmbeddedZooKeeper
class ZkLockedTransactionOrderTests {

	private static final String KEY = "stock:sku-1";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockedTransactionOrderTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withUserConfiguration(TransactionConfiguration.class);

	private String connectString = "";

	@BeforeEach
	void connect(ZooKeeperTestServer server) {
		this.connectString = server.getConnectString();
	}

	@Test
	void byDefaultTheLockIsHeldBeforeTheTransactionBeginsAndUntilAfterItCommits() {
		this.contextRunner.withUserConfiguration(TransactionsAtDefaultOrder.class).run((context) -> {
			RecordingTransactionManager transactions = context.getBean(RecordingTransactionManager.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, "/zklock/locks")) {
				transactions.probe = probe;
				context.getBean(Inventory.class).reserve("sku-1");
				assertThat(transactions.events).containsExactly("begin (locked, 1 node)", "work", "commit (locked, 1 node)");
				assertThat(ZkLockContext.find(KEY)).isEmpty();
				assertThat(probe.nodes(KEY)).as("released after the commit").isZero();
			}
		});
	}

	@Test
	void theConfiguredOrderPlacesTheLockAroundOrInsideTheTransaction() {
		ApplicationContextRunner runner = this.contextRunner.withUserConfiguration(TransactionsAtOrderZero.class);
		runner.withPropertyValues("zklock.lock.order=-1").run((context) -> assertThat(reserve(context))
			.containsExactly("begin (locked, 1 node)", "work", "commit (locked, 1 node)"));
		runner.withPropertyValues("zklock.lock.order=1").run((context) -> assertThat(reserve(context))
			.containsExactly("begin (not locked, 0 nodes)", "work", "commit (not locked, 0 nodes)"));
	}

	private List<String> reserve(ApplicationContext context) throws Exception {
		RecordingTransactionManager transactions = context.getBean(RecordingTransactionManager.class);
		try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, "/zklock/locks")) {
			transactions.probe = probe;
			context.getBean(Inventory.class).reserve("sku-1");
			return transactions.events;
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class TransactionConfiguration {

		@Bean
		RecordingTransactionManager transactionManager() {
			return new RecordingTransactionManager();
		}

		@Bean
		Inventory inventory(RecordingTransactionManager transactions) {
			return new Inventory(transactions);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class TransactionsAtDefaultOrder {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = 0)
	static class TransactionsAtOrderZero {

	}

	static class Inventory {

		private final RecordingTransactionManager transactions;

		Inventory(RecordingTransactionManager transactions) {
			this.transactions = transactions;
		}

		@ZkLocked("'stock:' + #sku")
		@Transactional
		public void reserve(String sku) {
			this.transactions.events.add("work");
		}

	}

	/**
	 * Records when transactions begin and commit, and whether the lock is held at that moment,
	 * as the thread sees it and as ZooKeeper does.
	 */
	static class RecordingTransactionManager implements PlatformTransactionManager {

		final List<String> events = new CopyOnWriteArrayList<>();

		volatile @Nullable ZooKeeperProbe probe;

		@Override
		public TransactionStatus getTransaction(@Nullable TransactionDefinition definition) {
			record("begin");
			return new SimpleTransactionStatus(true);
		}

		@Override
		public void commit(TransactionStatus status) {
			record("commit");
		}

		@Override
		public void rollback(TransactionStatus status) {
			record("rollback");
		}

		private void record(String event) {
			boolean locked = ZkLockContext.find(KEY).isPresent();
			int nodes;
			try {
				nodes = this.probe.nodes(KEY);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
			this.events.add(event + " (" + (locked ? "locked, " : "not locked, ") + nodes
					+ ((nodes == 1) ? " node)" : " nodes)"));
		}

	}

}
