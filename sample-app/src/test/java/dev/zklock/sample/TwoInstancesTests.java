package dev.zklock.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.ZkLeadership;
import dev.zklock.sample.report.LowStockReport;
import dev.zklock.sample.report.LowStockReports;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the service, each with its own ZooKeeper session and its own connection pool,
 * sharing one ZooKeeper server and one database, as two instances behind a load balancer would.
 * Reservations are read-modify-write with a pause between the read and the write, so without
 * the lock concurrent calls would lose updates and sell more than the stock.
 */
@EmbeddedZooKeeper
class TwoInstancesTests {

	private static final int STOCK = 40;

	private static final int CALLERS_PER_INSTANCE = 6;

	private static final int CALLS_PER_CALLER = 10;

	@Test
	void concurrentReservationsAtBothInstancesNeverOversell(ZooKeeperTestServer zooKeeper) throws Exception {
		String database = "jdbc:h2:mem:two-instances-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
		try (ConfigurableApplicationContext first = start(zooKeeper, database);
				ConfigurableApplicationContext second = start(zooKeeper, database)) {
			Http firstHttp = new Http(port(first));
			Http secondHttp = new Http(port(second));
			Map<Http, List<Http.Response>> byInstance = reserveConcurrently(firstHttp, secondHttp);
			List<Http.Response> responses = byInstance.values().stream().flatMap(List::stream).toList();
			List<Http.Response> reserved = responses.stream().filter((response) -> response.status() == 200).toList();
			assertThat(byInstance.get(firstHttp)).as("the first instance sold some")
				.anySatisfy((response) -> assertThat(response.status()).isEqualTo(200));
			assertThat(byInstance.get(secondHttp)).as("the second instance sold some")
				.anySatisfy((response) -> assertThat(response.status()).isEqualTo(200));
			assertThat(responses).allSatisfy((response) -> assertThat(response.status()).isIn(200, 409));
			assertThat(responses).filteredOn((response) -> response.status() == 409)
				.allSatisfy((response) -> assertThat(response.text("error")).isEqualTo("insufficient-stock"));
			assertThat(reserved).as("every unit sold once, and no more").hasSize(STOCK);
			assertThat(reserved).extracting((response) -> response.number("available"))
				.as("each reservation saw the one before it")
				.containsExactlyInAnyOrderElementsOf(range(0, STOCK - 1));
			JdbcClient jdbc = first.getBean(JdbcClient.class);
			assertThat(jdbc.sql("select available from stock where sku = 'sku-1'").query(Integer.class).single())
				.isZero();
			List<Long> tokensInSaleOrder = reserved.stream()
				.sorted(Comparator.comparingLong((Http.Response response) -> response.number("available")).reversed())
				.map((response) -> response.number("fencingToken"))
				.toList();
			assertThat(tokensInSaleOrder).as("each sale's lock had a larger fencing token than the sale before")
				.isSorted()
				.doesNotHaveDuplicates();
			assertThat(jdbc.sql("select fence from stock where sku = 'sku-1'").query(Long.class).single())
				.isGreaterThanOrEqualTo(tokensInSaleOrder.get(STOCK - 1));
		}
	}

	@Test
	void onlyOneInstanceRunsTheLowStockReport(ZooKeeperTestServer zooKeeper) throws Exception {
		String database = "jdbc:h2:mem:two-instances-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
		try (ConfigurableApplicationContext first = start(zooKeeper, database);
				ConfigurableApplicationContext second = start(zooKeeper, database)) {
			JsonNode firstView = new Http(port(first)).get("/leadership").body().path("groups").path(0);
			JsonNode secondView = new Http(port(second)).get("/leadership").body().path("groups").path(0);
			assertThat(firstView.path("participants").values()).hasSize(2);
			assertThat(firstView.path("currentLeader")).isEqualTo(secondView.path("currentLeader"));
			assertThat(firstView.path("leader").asBoolean()).isNotEqualTo(secondView.path("leader").asBoolean());
			ConfigurableApplicationContext leader = firstView.path("leader").asBoolean() ? first : second;
			ConfigurableApplicationContext other = (leader == first) ? second : first;
			await().atMost(Duration.ofSeconds(20))
				.until(() -> leader.getBean(LowStockReport.class).runs() >= 3);
			assertThat(other.getBean(LowStockReport.class).runs()).isZero();
			long epoch = leader.getBean(ZkLeadership.class).epoch("inventory").orElseThrow();
			LowStockReports reports = other.getBean(LowStockReports.class);
			assertThat(reports.lastEpoch()).as("the report is fenced by the leader's epoch").contains(epoch);
			assertThat(reports.record(epoch - 1, "a former leader", "late")).as("a late write of an earlier term")
				.isFalse();
		}
	}

	private static ConfigurableApplicationContext start(ZooKeeperTestServer zooKeeper, String database) {
		return new SpringApplicationBuilder(InventoryApplication.class).run("--server.port=0",
				"--zklock.embedded.enabled=false", "--zklock.connect-string=" + zooKeeper.getConnectString(),
				"--spring.datasource.url=" + database, "--inventory.initial-stock.sku-1=" + STOCK,
				"--inventory.simulated-work=5ms", "--inventory.report-interval=100ms");
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	private static Map<Http, List<Http.Response>> reserveConcurrently(Http first, Http second) throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
		try {
			List<Callable<List<Http.Response>>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS_PER_INSTANCE; i++) {
				calls.add(() -> reserve(first));
				calls.add(() -> reserve(second));
			}
			Map<Http, List<Http.Response>> responses = new IdentityHashMap<>();
			List<Future<List<Http.Response>>> results = callers.invokeAll(calls, 120, TimeUnit.SECONDS);
			for (int i = 0; i < results.size(); i++) {
				Http instance = (i % 2 == 0) ? first : second;
				responses.computeIfAbsent(instance, (key) -> new ArrayList<>()).addAll(results.get(i).get());
			}
			return responses;
		}
		finally {
			callers.shutdownNow();
		}
	}

	private static List<Http.Response> reserve(Http instance) {
		List<Http.Response> responses = new ArrayList<>();
		for (int i = 0; i < CALLS_PER_CALLER; i++) {
			responses.add(instance.post("/stock/sku-1/reserve?qty=1"));
		}
		return responses;
	}

	private static List<Long> range(long from, long to) {
		List<Long> values = new ArrayList<>();
		for (long value = from; value <= to; value++) {
			values.add(value);
		}
		return values;
	}

}
