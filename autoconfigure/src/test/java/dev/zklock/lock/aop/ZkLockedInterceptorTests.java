package dev.zklock.lock.aop;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockContext;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code @ZkLocked} methods called through their proxy, against a real ZooKeeper server.
 */
@EmbeddedZooKeeper
class ZkLockedInterceptorTests {

	private static final String BASE_PATH = "/zklock/locks";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockedInterceptorTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withBean("inventory", Inventory.class)
		.withBean("orders", Orders.class);

	private String connectString = "";

	@BeforeEach
	void connect(ZooKeeperTestServer server) {
		this.connectString = server.getConnectString();
	}

	@Test
	void parameterNameKeyHoldsTheLockDuringTheCall() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, BASE_PATH)) {
				orders.whileLocked(() -> assertThat(probe.nodes("stock:sku-1")).isOne());
				assertThat(orders.byName("sku-1", 2)).isEqualTo("stock:sku-1 EXCLUSIVE");
				assertThat(probe.nodes("stock:sku-1")).isZero();
			}
		});
	}

	@Test
	void positionalKeys() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.byP0("sku-2", 1)).isEqualTo("sku-2 EXCLUSIVE");
			assertThat(orders.byA1("sku-2", 7)).isEqualTo("7 EXCLUSIVE");
		});
	}

	@Test
	void beanReferenceAndRootKeys() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.byBean("sku-3")).isEqualTo("eu/sku-3 EXCLUSIVE");
			assertThat(orders.byRoot()).isEqualTo("byRoot@orders-service EXCLUSIVE");
		});
	}

	@Test
	void emptyKeyIsClassAndMethodName() {
		this.contextRunner.run((context) -> assertThat(context.getBean(Orders.class).defaultKey())
			.isEqualTo("Orders.defaultKey EXCLUSIVE"));
	}

	@Test
	void metaAnnotationAndSharedMode() {
		this.contextRunner.run((context) -> assertThat(context.getBean(Orders.class).report())
			.isEqualTo("reports SHARED"));
	}

	@Test
	void nullOrEmptyKeyFailsWithoutCallingTheMethod() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatIllegalArgumentException().isThrownBy(() -> orders.byP0(null, 1))
				.withMessage("The @ZkLocked key expression '#p0' of Orders.byP0(String, int) evaluated to null; "
						+ "the method was not called");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.byP0("", 1))
				.withMessageContaining("evaluated to an empty key");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.many(java.util.Arrays.asList("a", null)))
				.withMessageContaining("'#skus'")
				.withMessageContaining("evaluated to null");
			assertThat(orders.calls()).hasValue(0);
		});
	}

	@Test
	void collectionKeyLocksEveryElement() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, BASE_PATH)) {
				orders.whileLocked(() -> {
					assertThat(probe.nodes("a")).isOne();
					assertThat(probe.nodes("b")).isOne();
				});
				assertThat(orders.many(List.of("b", "a", "b"))).containsExactly("a", "b");
				assertThat(probe.nodes("a")).isZero();
				assertThat(probe.nodes("b")).isZero();
			}
		});
	}

	@Test
	void skipReturnsWithoutCallingTheMethod() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, BASE_PATH);
					ZooKeeperProbe.Hold hold = probe.hold("busy")) {
				orders.skipVoid();
				assertThat(orders.skipOptional()).isEmpty();
				assertThat(orders.skipReference()).isNull();
				assertThat(orders.calls()).hasValue(0);
				assertOnlyTheHolderRemainsSoon(probe, "busy");
			}
		});
	}

	@Test
	void skipCallsTheMethodWhenTheLockIsFree() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.skipOptional()).contains("busy");
			assertThat(orders.skipReference()).isEqualTo("busy");
			assertThat(orders.calls()).hasValue(2);
		});
	}

	@Test
	void throwEndsWithLockTimeoutException() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, BASE_PATH);
					ZooKeeperProbe.Hold hold = probe.hold("busy")) {
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(orders::waitBriefly)
					.satisfies((ex) -> {
						assertThat(ex.getKey()).isEqualTo("busy");
						assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(200));
					});
				assertThat(orders.calls()).hasValue(0);
				assertOnlyTheHolderRemainsSoon(probe, "busy");
			}
		});
	}

	@Test
	void emptyWaitTimeUsesTheConfiguredOne() {
		this.contextRunner.withPropertyValues("zklock.lock.wait-time=300ms").run((context) -> {
			Orders orders = context.getBean(Orders.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, BASE_PATH);
					ZooKeeperProbe.Hold hold = probe.hold("busy")) {
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(orders::waitDefault)
					.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(300)));
			}
		});
	}

	@Test
	void methodsOwnCheckedExceptionPassesUnchangedAndTheLockIsReleased() {
		this.contextRunner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			try (ZooKeeperProbe probe = new ZooKeeperProbe(this.connectString, BASE_PATH)) {
				assertThatThrownBy(orders::failing).isSameAs(orders.failure());
				assertThat(probe.nodes("disk")).isZero();
			}
		});
	}

	@Test
	void interfaceBasedProxyUsesTheImplementationsAnnotationAndParameterNames() {
		this.contextRunner.withBean("catalog", Catalog.class, CatalogService::new).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			assertThat(AopUtils.isJdkDynamicProxy(catalog)).isTrue();
			assertThat(catalog.price("sku-9")).isEqualTo("price:sku-9 SHARED");
		});
	}

	@Test
	void outsideALockedCallThereIsNoLock() {
		this.contextRunner.run((context) -> {
			context.getBean(Orders.class).byP0("x", 1);
			assertThat(ZkLockContext.find("x")).isEmpty();
		});
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@ZkLocked(key = "'reports'", mode = LockMode.SHARED)
	@interface ReportLock {

	}

	/**
	 * A call that waited and gave up deletes its node in the background: it must go, soon, and
	 * leave only the holder's.
	 */
	private static void assertOnlyTheHolderRemainsSoon(ZooKeeperProbe probe, String key) {
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(probe.nodes(key)).as("no waiter's node left behind").isOne());
	}

	interface Catalog {

		String price(String item);

	}

	static class CatalogService implements Catalog {

		@Override
		@ZkLocked(key = "'price:' + #sku", mode = LockMode.SHARED)
		public String price(String sku) {
			HeldLock lock = ZkLockContext.current();
			return lock.key() + " " + lock.mode();
		}

	}

	static class Inventory {

		public String getRegion() {
			return "eu";
		}

	}

	static class Orders {

		final AtomicInteger calls = new AtomicInteger();

		final IOException failure = new IOException("disk full");

		volatile ThrowingRunnable whileLocked = () -> {
		};

		public String getName() {
			return "orders-service";
		}

		public AtomicInteger calls() {
			return this.calls;
		}

		public IOException failure() {
			return this.failure;
		}

		public void whileLocked(ThrowingRunnable check) {
			this.whileLocked = check;
		}

		@ZkLocked("'stock:' + #sku")
		public String byName(String sku, int quantity) throws Exception {
			return held();
		}

		@ZkLocked("#p0")
		public String byP0(String sku, int quantity) throws Exception {
			return held();
		}

		@ZkLocked(key = "#a1")
		public String byA1(String sku, int quantity) throws Exception {
			return held();
		}

		@ZkLocked("@inventory.region + '/' + #sku")
		public String byBean(String sku) throws Exception {
			return held();
		}

		@ZkLocked("#root.method.name + '@' + #root.target.name")
		public String byRoot() throws Exception {
			return held();
		}

		@ZkLocked
		public String defaultKey() throws Exception {
			return held();
		}

		@ReportLock
		public String report() throws Exception {
			return held();
		}

		@ZkLocked("#skus")
		public List<String> many(List<String> skus) throws Exception {
			held();
			return skus.stream().distinct().sorted().filter((key) -> ZkLockContext.find(key).isPresent()).toList();
		}

		@ZkLocked(key = "'busy'", waitTime = "0", onTimeout = OnLockTimeout.SKIP)
		public void skipVoid() {
			this.calls.incrementAndGet();
		}

		@ZkLocked(key = "'busy'", waitTime = "0", onTimeout = OnLockTimeout.SKIP)
		public Optional<String> skipOptional() {
			this.calls.incrementAndGet();
			return Optional.of(ZkLockContext.current().key());
		}

		@ZkLocked(key = "'busy'", waitTime = "100ms", onTimeout = OnLockTimeout.SKIP)
		public String skipReference() {
			this.calls.incrementAndGet();
			return ZkLockContext.current().key();
		}

		@ZkLocked(key = "'busy'", waitTime = "200ms")
		public void waitBriefly() {
			this.calls.incrementAndGet();
		}

		@ZkLocked("'busy'")
		public void waitDefault() {
			this.calls.incrementAndGet();
		}

		@ZkLocked("'disk'")
		public void failing() throws IOException {
			throw this.failure;
		}

		private String held() throws Exception {
			this.calls.incrementAndGet();
			this.whileLocked.run();
			HeldLock lock = ZkLockContext.current();
			return lock.key() + " " + lock.mode();
		}

	}

	@FunctionalInterface
	interface ThrowingRunnable {

		void run() throws Exception;

	}

}
