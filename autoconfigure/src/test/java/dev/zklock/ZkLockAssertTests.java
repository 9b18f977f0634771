package dev.zklock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link ZkLockAssert} in code run under real locks (a ZooKeeper server), called directly, and in
 * a test's as-if-locked scope.
 */
@EmbeddedZooKeeper
@Timeout(60)
class ZkLockAssertTests {

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void contextRunner(ZooKeeperTestServer server) {
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withBean(Stock.class);
	}

	@Test
	void passesUnderTheLockOfTheAnnotatedMethod() {
		this.contextRunner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			assertThat(stock.reserve("sku-1")).isEqualTo("reserved sku-1");
			assertThat(stock.reserveAnyLock("sku-1")).isEqualTo("reserved sku-1");
		});
	}

	@Test
	void failsWithAClearMessageWhenTheLockWasBypassed() {
		this.contextRunner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			assertThatIllegalStateException().isThrownBy(() -> stock.reserveBypassingTheLock("sku-1"))
				.withMessageContaining("'stock:sku-1'")
				.withMessageContaining("does not hold it");
		});
	}

	@Test
	void failsUnderTheLockOfAnotherKey() {
		this.contextRunner.run((context) -> assertThatIllegalStateException()
			.isThrownBy(() -> context.getBean(Stock.class).reserveUnderAnotherKey("sku-1"))
			.withMessageContaining("'stock:sku-1'"));
	}

	@Test
	void aTestCallingTheMethodDirectlyFailsUnlessItRunsAsIfLocked() {
		Stock stock = new Stock();
		assertThatIllegalStateException().isThrownBy(() -> stock.reserve("sku-1"));
		assertThatIllegalStateException().isThrownBy(() -> stock.reserveAnyLock("sku-1"));
		assertThat(ZkLockAssert.callAsIfLocked(() -> stock.reserve("sku-1"))).isEqualTo("reserved sku-1");
		ZkLockAssert.runAsIfLocked(() -> ZkLockAssert.runAsIfLocked(() -> stock.reserveAnyLock("sku-2")));
		assertThatIllegalStateException().as("the scope ends with the call").isThrownBy(() -> stock.reserve("sku-1"));
	}

	@Test
	void theAsIfLockedScopeStaysOnItsThreadAndEndsOnFailure() throws Exception {
		Stock stock = new Stock();
		ZkLockAssert.runAsIfLocked(() -> {
			CompletableFuture<String> otherThread = CompletableFuture.supplyAsync(() -> stock.reserve("sku-1"));
			assertThat(otherThread).failsWithin(10, TimeUnit.SECONDS)
				.withThrowableThat()
				.havingRootCause()
				.isInstanceOf(IllegalStateException.class);
		});
		assertThatIllegalStateException().isThrownBy(() -> ZkLockAssert.runAsIfLocked(() -> {
			throw new IllegalStateException("boom");
		})).withMessage("boom");
		assertThatIllegalStateException().isThrownBy(() -> stock.reserve("sku-1"));
	}

	static class Stock {

		@ZkLocked(key = "'stock:' + #sku")
		public String reserve(String sku) {
			ZkLockAssert.assertLocked("stock:" + sku);
			return "reserved " + sku;
		}

		@ZkLocked(key = "'stock:' + #sku")
		public String reserveAnyLock(String sku) {
			ZkLockAssert.assertLocked();
			return "reserved " + sku;
		}

		@ZkLocked(key = "'other:' + #sku")
		public String reserveUnderAnotherKey(String sku) {
			ZkLockAssert.assertLocked("stock:" + sku);
			return "reserved " + sku;
		}

		public String reserveBypassingTheLock(String sku) {
			return reserve(sku);
		}

	}

}
