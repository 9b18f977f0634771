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
 * The blocking endpoint, {@code /reserve}, takes the same lock, so the two kinds take turns.
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
			Map<Http, List<Http.Response>> byInstance = reserveConcurrently(firstHttp, secondHttp,
					(instance, call) -> instance.post("/stock/sku-1/reserve-later?qty=1"));
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
	void laterAndBlockingReservationsAtBothInstancesTakeTurnsOnTheSameLock(ZooKeeperTestServer zooKeeper)
			throws Exception {
		String database = "jdbc:h2:mem:later-reservations-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
		try (ConfigurableApplicationContext first = start(zooKeeper, database);
				ConfigurableApplicationContext second = start(zooKeeper, database)) {
			Map<Http, List<Http.Response>> byInstance = reserveConcurrently(new Http(port(first)),
					new Http(port(second)), (instance, call) -> instance
						.post((call % 2 == 0) ? "/stock/sku-1/reserve-later?qty=1" : "/stock/sku-1/reserve?qty=1"));
			List<Http.Response> reserved = byInstance.values()
				.stream()
				.flatMap(List::stream)
				.filter((response) -> response.status() == 200)
				.toList();
			List<Http.Response> later = reserved.stream().filter((response) -> response.body().has("laterStage")).toList();
			assertThat(later).as("later reservations").isNotEmpty().hasSizeLessThan(reserved.size());
			assertThat(later).allSatisfy((response) -> assertThat(response.body().path("laterStage").path("fencingToken"))
				.isEqualTo(response.body().path("body").path("fencingToken")));
			assertThat(reserved).as("every unit sold once, and no more").hasSize(STOCK);
			assertThat(reserved).extracting((response) -> response.number("available"))
				.as("each reservation saw the one before it, of either kind")
				.containsExactlyInAnyOrderElementsOf(range(0, STOCK - 1));
			List<Long> tokensInSaleOrder = reserved.stream()
				.sorted(Comparator.comparingLong((Http.Response response) -> response.number("available")).reversed())
				.map(LaterReservationsTwoInstancesTests::writeToken)
				.toList();
			assertThat(tokensInSaleOrder).as("the database took the writes in token order")
				.isSorted()
				.doesNotHaveDuplicates();
			assertThat(first.getBean(JdbcClient.class)
				.sql("select available from stock where sku = 'sku-1'")
				.query(Integer.class)
				.single()).isZero();
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

	private static long writeToken(Http.Response reservation) {
		JsonNode laterStage = reservation.body().path("laterStage");
		return laterStage.isMissingNode() ? reservation.number("fencingToken") : laterStage.path("fencingToken").asLong();
	}

	private static Map<Http, List<Http.Response>> reserveConcurrently(Http first, Http second, Caller caller)
			throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
		try {
			List<Callable<List<Http.Response>>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS_PER_INSTANCE; i++) {
				calls.add(() -> calls(first, caller));
				calls.add(() -> calls(second, caller));
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

	private static List<Http.Response> calls(Http instance, Caller caller) {
		List<Http.Response> responses = new ArrayList<>();
		for (int call = 0; call < CALLS_PER_CALLER; call++) {
			responses.add(caller.call(instance, call));
		}
		return responses;
	}

	/**
	 * Makes a caller's calls to one instance.
	 */
	@FunctionalInterface
	private interface Caller {

		Http.Response call(Http instance, int call);

	}

	private static List<Long> range(long from, long to) {
		List<Long> values = new ArrayList<>();
		for (long value = from; value <= to; value++) {
			values.add(value);
		}
		return values;
	}

}
