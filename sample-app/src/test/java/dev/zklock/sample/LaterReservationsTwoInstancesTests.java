package dev.zklock.sample;

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

import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The asynchronous reservation endpoint, {@code POST /stock/{sku}/reserve-later}, called from
 * outside at two instances of the service at once, each with its own ZooKeeper session, sharing
 * one ZooKeeper server and one database. Its locked method returns a {@code CompletableFuture}:
 * the body fences the row with the lock's token, and a later stage on a context-propagating
 * executor writes it with the lock it finds there. Each response says which lock each part saw.
 */
@EmbeddedZooKeeper
class LaterReservationsTwoInstancesTests {

	private static final int STOCK = 100;

	private static final int CALLERS_PER_INSTANCE = 6;

	private static final int CALLS_PER_CALLER = 10;

	private static final String KEY = "stock:sku-1";

	@Test
	void theLaterStageSeesTheBodysLockAndTheWritesAddUp(ZooKeeperTestServer zooKeeper) throws Exception {
		String database = "jdbc:h2:mem:later-reservations-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
		try (ConfigurableApplicationContext first = start(zooKeeper, database);
				ConfigurableApplicationContext second = start(zooKeeper, database)) {
			Http firstHttp = new Http(port(first));
			Http secondHttp = new Http(port(second));
			Map<Http, List<Http.Response>> byInstance = reserveConcurrently(firstHttp, secondHttp);
			List<Http.Response> responses = byInstance.values().stream().flatMap(List::stream).toList();
			assertThat(responses).hasSize(2 * CALLERS_PER_INSTANCE * CALLS_PER_CALLER);
			assertThat(responses).allSatisfy((response) -> assertThat(response.status()).isIn(200, 409));
			assertThat(responses).filteredOn((response) -> response.status() == 409)
				.allSatisfy((response) -> assertThat(response.text("error")).isEqualTo("insufficient-stock"));
			List<Http.Response> reserved = responses.stream().filter((response) -> response.status() == 200).toList();
			assertThat(byInstance.get(firstHttp)).as("the first instance sold some")
				.anySatisfy((response) -> assertThat(response.status()).isEqualTo(200));
			assertThat(byInstance.get(secondHttp)).as("the second instance sold some")
				.anySatisfy((response) -> assertThat(response.status()).isEqualTo(200));

			assertThat(reserved).allSatisfy((response) -> {
				JsonNode body = response.body().path("body");
				JsonNode laterStage = response.body().path("laterStage");
				assertThat(body.path("key").asString()).as("the lock the body saw").isEqualTo(KEY);
				assertThat(laterStage.path("key").asString()).as("the lock the later stage saw").isEqualTo(KEY);
				assertThat(laterStage.path("fencingToken").asLong()).as("the later stage's token")
					.isEqualTo(body.path("fencingToken").asLong());
				assertThat(laterStage.path("thread").asString()).as("the later stage's thread")
					.startsWith("stock-stage-")
					.isNotEqualTo(body.path("thread").asString());
				assertThat(response.body().has("afterRelease")).isTrue();
				assertThat(response.body().path("afterRelease").isNull()).as("a stage after the release sees no lock")
					.isTrue();
			});

			assertThat(reserved).as("every unit sold once, and no more").hasSize(STOCK);
			assertThat(reserved).extracting((response) -> response.number("available"))
				.as("each reservation saw the one before it: no update lost")
				.containsExactlyInAnyOrderElementsOf(range(0, STOCK - 1));
			JdbcClient jdbc = first.getBean(JdbcClient.class);
			assertThat(jdbc.sql("select available from stock where sku = 'sku-1'").query(Integer.class).single())
				.isZero();
			List<Long> tokensInSaleOrder = reserved.stream()
				.sorted(Comparator.comparingLong((Http.Response response) -> response.number("available")).reversed())
				.map((response) -> response.body().path("laterStage").path("fencingToken").asLong())
				.toList();
			assertThat(tokensInSaleOrder).as("the database took the writes in token order")
				.isSorted()
				.doesNotHaveDuplicates();
			assertThat(jdbc.sql("select fence from stock where sku = 'sku-1'").query(Long.class).single())
				.isGreaterThanOrEqualTo(tokensInSaleOrder.get(STOCK - 1));
		}
	}

	@Test
	void badRequestsAreAnsweredAsTheBlockingEndpointAnswersThem(ZooKeeperTestServer zooKeeper) {
		String database = "jdbc:h2:mem:later-reservations-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
		try (ConfigurableApplicationContext instance = start(zooKeeper, database)) {
			Http http = new Http(port(instance));
			Http.Response unknown = http.post("/stock/sku-0/reserve-later?qty=1");
			assertThat(unknown.status()).isEqualTo(404);
			assertThat(unknown.text("error")).isEqualTo("unknown-sku");
			Http.Response invalid = http.post("/stock/sku-1/reserve-later?qty=0");
			assertThat(invalid.status()).isEqualTo(400);
			assertThat(invalid.text("error")).isEqualTo("invalid-quantity");
			Http.Response tooMany = http.post("/stock/sku-1/reserve-later?qty=" + (STOCK + 1));
			assertThat(tooMany.status()).isEqualTo(409);
			assertThat(tooMany.number("available")).isEqualTo(STOCK);
		}
	}

	private static ConfigurableApplicationContext start(ZooKeeperTestServer zooKeeper, String database) {
		return new SpringApplicationBuilder(InventoryApplication.class).run("--server.port=0",
				"--zklock.embedded.enabled=false", "--zklock.connect-string=" + zooKeeper.getConnectString(),
				"--spring.datasource.url=" + database, "--inventory.initial-stock.sku-1=" + STOCK,
				"--inventory.simulated-work=5ms", "--inventory.report-interval=1h");
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	private static Map<Http, List<Http.Response>> reserveConcurrently(Http first, Http second) throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
		try {
			List<Callable<List<Http.Response>>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS_PER_INSTANCE; i++) {
				calls.add(() -> reserveLater(first));
				calls.add(() -> reserveLater(second));
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

	private static List<Http.Response> reserveLater(Http instance) {
		List<Http.Response> responses = new ArrayList<>();
		for (int i = 0; i < CALLS_PER_CALLER; i++) {
			responses.add(instance.post("/stock/sku-1/reserve-later?qty=1"));
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
