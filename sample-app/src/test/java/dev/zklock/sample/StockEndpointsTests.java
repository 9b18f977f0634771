package dev.zklock.sample;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.HeldLockInfo;
import dev.zklock.lock.WaitingCallInfo;
import dev.zklock.test.EmbeddedZooKeeper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each stock endpoint over real HTTP, against a ZooKeeper server started by the test-support
 * module's {@link EmbeddedZooKeeper}.
 */
@EmbeddedZooKeeper
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "zklock.embedded.enabled=false")
class StockEndpointsTests {

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private ZkLockTemplate locks;

	private Http http;

	@BeforeEach
	void resetStock() {
		this.http = new Http(this.port);
		this.jdbc.sql("update stock set available = 100, fence = 0 where sku = 'sku-1'").update();
		this.jdbc.sql("update stock set available = 20, fence = 0 where sku = 'sku-2'").update();
	}

	@Test
	void reserveTakesUnitsUnderTheLockAndStoresItsFencingToken() {
		Http.Response response = this.http.post("/stock/sku-1/reserve?qty=3");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.number("reserved")).isEqualTo(3);
		assertThat(response.number("available")).isEqualTo(97);
		long token = response.number("fencingToken");
		assertThat(token).isPositive();
		assertThat(stored("sku-1")).isEqualTo("97 " + token);
		Http.Response next = this.http.post("/stock/sku-1/reserve?qty=1");
		assertThat(next.number("fencingToken")).as("a later grant has a larger token").isGreaterThan(token);
	}

	@Test
	void reactiveReserveTakesUnitsUnderTheLockAndStoresItsFencingToken() {
		long before = this.http.post("/stock/sku-1/reserve?qty=1").number("fencingToken");
		Http.Response response = this.http.post("/stock/sku-1/reserve-reactive?qty=3");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.number("reserved")).isEqualTo(3);
		assertThat(response.number("available")).isEqualTo(96);
		long token = response.number("fencingToken");
		assertThat(token).as("a later grant has a larger token").isGreaterThan(before);
		assertThat(stored("sku-1")).isEqualTo("96 " + token);
		Http.Response refused = this.http.post("/stock/sku-2/reserve-reactive?qty=21");
		assertThat(refused.status()).isEqualTo(409);
		assertThat(refused.text("error")).isEqualTo("insufficient-stock");
	}

	@Test
	void reserveOfMoreThanIsAvailableIsRefusedWith409() {
		Http.Response response = this.http.post("/stock/sku-2/reserve?qty=21");
		assertThat(response.status()).isEqualTo(409);
		assertThat(response.text("error")).isEqualTo("insufficient-stock");
		assertThat(response.number("available")).isEqualTo(20);
		assertThat(stored("sku-2")).startsWith("20 ");
	}

	@Test
	void reserveOfAnUnknownSkuOrOfNothingIsRefused() {
		Http.Response unknown = this.http.post("/stock/nope/reserve?qty=1");
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.text("error")).isEqualTo("unknown-sku");
		Http.Response none = this.http.post("/stock/sku-1/reserve?qty=0");
		assertThat(none.status()).isEqualTo(400);
		assertThat(none.text("error")).isEqualTo("invalid-quantity");
	}

	@Test
	void theDatabaseRejectsAWriteWhoseFencingTokenIsLowerThanTheStoredOne() {
		this.jdbc.sql("update stock set fence = ? where sku = 'sku-1'").params(Long.MAX_VALUE).update();
		Http.Response response = this.http.post("/stock/sku-1/reserve?qty=5");
		assertThat(response.status()).isEqualTo(409);
		assertThat(response.text("error")).isEqualTo("stale-fencing-token");
		assertThat(response.number("fencingToken")).isPositive().isLessThan(Long.MAX_VALUE);
		assertThat(stored("sku-1")).isEqualTo("100 " + Long.MAX_VALUE);
	}

	@Test
	void getReadsBesideOtherReadersButWaitsForAWriter() throws Exception {
		try (LockHolder reader = LockHolder.hold(this.locks, "stock:sku-1", LockMode.SHARED)) {
			Http.Response response = this.http.get("/stock/sku-1");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.number("available")).isEqualTo(100);
		}
		CompletableFuture<Http.Response> read;
		try (LockHolder writer = LockHolder.hold(this.locks, "stock:sku-1", LockMode.EXCLUSIVE)) {
			read = CompletableFuture.supplyAsync(() -> this.http.get("/stock/sku-1"));
			await().atMost(Duration.ofSeconds(20))
				.until(() -> this.locks.waitingCalls().stream().map(WaitingCallInfo::mode).toList(),
						(modes) -> modes.contains(LockMode.SHARED));
			assertThat(read).isNotDone();
		}
		assertThat(read.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
	}

	@Test
	void restockAddsUnits() {
		Http.Response response = this.http.post("/stock/sku-2/restock?qty=5");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.number("available")).isEqualTo(25);
		assertThat(stored("sku-2")).isEqualTo("25 " + response.number("fence"));
		assertThat(this.http.post("/stock/sku-2/restock-if-free?qty=5").number("available")).isEqualTo(30);
	}

	@Test
	void restockWaitsTwoSecondsForABusyLockThenAnswers423() throws Exception {
		try (LockHolder other = LockHolder.hold(this.locks, "stock:sku-2", LockMode.EXCLUSIVE)) {
			long start = System.nanoTime();
			Http.Response response = this.http.post("/stock/sku-2/restock?qty=5");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
			assertThat(response.status()).isEqualTo(423);
			assertThat(response.text("type")).isEqualTo("urn:zklock:lock-timeout");
			assertThat(response.text("key")).isEqualTo("stock:sku-2");
			assertThat(response.text("waitTime")).isEqualTo("2000ms");
		}
		assertThat(stored("sku-2")).isEqualTo("20 0");
	}

	@Test
	void restockIfFreeSkipsTheCallWhenTheLockIsBusyAndAnswers409() throws Exception {
		try (LockHolder other = LockHolder.hold(this.locks, "stock:sku-2", LockMode.EXCLUSIVE)) {
			long start = System.nanoTime();
			Http.Response response = this.http.post("/stock/sku-2/restock-if-free?qty=5");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
			assertThat(response.status()).isEqualTo(409);
			assertThat(response.text("error")).isEqualTo("skipped");
			assertThat(response.text("key")).isEqualTo("stock:sku-2");
		}
		assertThat(stored("sku-2")).isEqualTo("20 0");
	}

	@Test
	void stocktakeHoldsTheLockExclusivelyWhileItCounts() throws Exception {
		CompletableFuture<Http.Response> stocktake = CompletableFuture
			.supplyAsync(() -> this.http.post("/stock/sku-2/stocktake?seconds=5"));
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.locks.heldLocks().stream().map(HeldLockInfo::key).toList(),
					(keys) -> keys.contains("stock:sku-2"));
		Http.Response restock = this.http.post("/stock/sku-2/restock-if-free?qty=5");
		assertThat(restock.status()).isEqualTo(409);
		Http.Response counted = stocktake.get(30, TimeUnit.SECONDS);
		assertThat(counted.status()).isEqualTo(200);
		assertThat(counted.number("available")).isEqualTo(20);
		assertThat(this.http.post("/stock/sku-2/stocktake?seconds=31").status()).isEqualTo(400);
	}

	private String stored(String sku) {
		return this.jdbc.sql("select available || ' ' || fence from stock where sku = ?")
			.params(sku)
			.query(String.class)
			.single();
	}

}
