package dev.zklock.actuate;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockContext;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.audit.AuditEvent;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@code zklockcluster} endpoint over HTTP, asked of one instance about another: two
 * applications on one real server, one holding a key in an annotated method, the other waiting
 * for it. The view shows the true queue and both instances in the election; the release is
 * refused where access is read-only (the default), and where it is unrestricted it ends the
 * holder's call with {@link LockLostException}, is audited (an {@code AuditApplicationEvent}, which Boot stores in the application's
 * {@code AuditEventRepository}) and counted on both sides.
 */
@EmbeddedZooKeeper
@Timeout(180)
class ZkLockClusterEndpointWebTests {

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void showsTheQueueOfAnotherInstanceAndReleasesItsNodeOnlyWithWriteAccess(ZooKeeperTestServer server)
			throws Exception {
		String base = "/cluster-web-tests/" + System.nanoTime();
		try (ConfigurableApplicationContext holder = start(server, base, "holder");
				ConfigurableApplicationContext operator = start(server, base, "operator",
						"management.endpoint.zklockcluster.access=unrestricted")) {
			String holderId = holder.getBean(ZkLockTemplate.class).getParticipantId();
			String operatorId = operator.getBean(ZkLockTemplate.class).getParticipantId();
			assertThat(holder.getBean(ZkLeadership.class).participantId()).as("one id for locks and elections")
				.isEqualTo(holderId);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> holder.getBean(ZkLeadership.class).participants("nightly").size() == 2);
			Stocktake stocktake = holder.getBean(Stocktake.class);
			Future<Long> held = this.executor.submit(() -> stocktake.count("sku-1"));
			assertThat(stocktake.awaitHolding()).isTrue();
			Future<Long> waiting = this.executor.submit(() -> operator.getBean(ZkLockTemplate.class)
				.executeOrElse("reserve", List.of("stock:sku-1"), LockMode.EXCLUSIVE, Duration.ofSeconds(60),
						(lock) -> lock.fencingToken(), () -> -1L));
			await().atMost(Duration.ofSeconds(30)).until(() -> JsonPath.parse(get(operator,
					"/actuator/zklockcluster/stock:sku-1").body()).read("$.nodes.length()", Integer.class) == 2);

			DocumentContext cluster = JsonPath.parse(get(operator, "/actuator/zklockcluster?prefix=stock:").body());
			assertThat(cluster.read("$.keys[0].key", String.class)).isEqualTo("stock:sku-1");
			assertThat(cluster.read("$.keys[0].nodes[0].owner", String.class)).isEqualTo(holderId);
			assertThat(cluster.read("$.keys[0].nodes[0].call", String.class)).isEqualTo("Stocktake#count");
			assertThat(cluster.read("$.keys[0].nodes[0].mode", String.class)).isEqualTo("EXCLUSIVE");
			assertThat(cluster.read("$.keys[0].nodes[0].granted", Boolean.class)).isTrue();
			assertThat(cluster.read("$.keys[0].nodes[1].owner", String.class)).isEqualTo(operatorId);
			assertThat(cluster.read("$.keys[0].nodes[1].call", String.class)).isEqualTo("reserve");
			assertThat(cluster.read("$.keys[0].nodes[1].granted", Boolean.class)).isFalse();
			assertThat(cluster.read("$.more", Boolean.class)).isFalse();
			assertThat(cluster.read("$.elections[0].group", String.class)).isEqualTo("nightly");
			assertThat(cluster.read("$.elections[0].participants", List.class)).containsExactly(holderId, operatorId);
			assertThat(cluster.read("$.elections[0].leader", String.class)).isEqualTo(holderId);
			assertThat(cluster.read("$.elections[0].epoch", Long.class))
				.isEqualTo(holder.getBean(ZkLeadership.class).epoch("nightly").orElseThrow());
			assertThat(JsonPath.parse(get(operator, "/actuator/zklockcluster?prefix=order:").body())
				.read("$.keys.length()", Integer.class)).isZero();

			// Encoded: a participant id has a "#2" suffix when an earlier instance ran in the same process.
			String path = "/actuator/zklockcluster/stock:sku-1?owner=" + URLEncoder.encode(holderId, StandardCharsets.UTF_8);
			assertThat(delete(holder, path).statusCode()).as("read-only by default").isEqualTo(405);
			assertThat(waiting).isNotDone();
			assertThat(delete(operator, "/actuator/zklockcluster/stock:sku-1").statusCode()).isEqualTo(400);

			HttpResponse<String> response = delete(operator, path);
			assertThat(response.statusCode()).isEqualTo(200);
			DocumentContext released = JsonPath.parse(response.body());
			assertThat(released.read("$.owners[0].participant", String.class)).isEqualTo(holderId);
			assertThat(released.read("$.owners[0].told", Boolean.class)).isTrue();
			long token = waiting.get(30, TimeUnit.SECONDS);
			stocktake.finish();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> held.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			assertThat(token).isGreaterThan(stocktake.token());

			assertThat(holder.getBean(AuditEvents.class).events).isEmpty();
			assertThat(operator.getBean(AuditEvents.class).events).singleElement().satisfies((event) -> {
				assertThat(event.getType()).isEqualTo(ZkLockClusterEndpoint.RELEASE_AUDIT_TYPE);
				assertThat(event.getData()).containsEntry("key", "stock:sku-1");
				assertThat(event.getData().get("owners")).isEqualTo(List.of(holderId));
			});
			assertThat(counter(operator, "releaser")).isOne();
			assertThat(counter(holder, "owner")).isOne();
			assertThat(counter(holder, "releaser")).isZero();
		}
	}

	@Test
	void addressesAKeyOfAnyCharactersByParameter(ZooKeeperTestServer server) throws Exception {
		String base = "/cluster-web-tests/" + System.nanoTime();
		String key = "eu/stock#1 100%";
		try (ConfigurableApplicationContext holder = start(server, base, "holder");
				ConfigurableApplicationContext operator = start(server, base, "operator",
						"management.endpoint.zklockcluster.access=unrestricted")) {
			String holderId = holder.getBean(ZkLockTemplate.class).getParticipantId();
			CountDownLatch holds = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<Boolean> held = this.executor.submit(() -> holder.getBean(ZkLockTemplate.class)
				.executeOrElse("odd", List.of(key), LockMode.EXCLUSIVE, null, (lock) -> {
					holds.countDown();
					release.await(60, TimeUnit.SECONDS);
					return true;
				}, () -> false));
			assertThat(holds.await(30, TimeUnit.SECONDS)).isTrue();
			String encoded = URLEncoder.encode(key, StandardCharsets.UTF_8);

			DocumentContext queue = JsonPath.parse(get(operator, "/actuator/zklockcluster?key=" + encoded).body());
			assertThat(queue.read("$.key", String.class)).isEqualTo(key);
			assertThat(queue.read("$.nodes[0].owner", String.class)).isEqualTo(holderId);
			assertThat(queue.read("$.nodes[0].call", String.class)).isEqualTo("odd");
			DocumentContext cluster = JsonPath.parse(get(operator, "/actuator/zklockcluster?prefix=eu/").body());
			assertThat(cluster.read("$.keys[*].key", List.class)).containsExactly(key);
			assertThat(cluster.read("$.skipped", List.class)).isEmpty();

			HttpResponse<String> response = delete(operator, "/actuator/zklockcluster?key=" + encoded + "&owner="
					+ URLEncoder.encode(holderId, StandardCharsets.UTF_8));
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(JsonPath.parse(response.body()).read("$.key", String.class)).isEqualTo(key);
			release.countDown();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> held.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			assertThat(operator.getBean(AuditEvents.class).events).singleElement()
				.satisfies((event) -> assertThat(event.getData()).containsEntry("key", key));
		}
	}

	private static double counter(ConfigurableApplicationContext context, String side) {
		return context.getBean(MeterRegistry.class).get("zklock.lock.force.release").tag("side", side).counter().count();
	}

	private ConfigurableApplicationContext start(ZooKeeperTestServer server, String base, String name,
			String... properties) {
		return new SpringApplicationBuilder(WebApplication.class)
			.properties("server.address=127.0.0.1", "server.port=0", "spring.main.banner-mode=off",
					"spring.application.name=" + name, "zklock.connect-string=" + server.getConnectString(),
					"zklock.leader.groups=nightly", "zklock.leader.base-path=" + base + "/leaders",
					"zklock.lock.base-path=" + base + "/locks",
					"management.endpoints.web.exposure.include=zklock,zklockcluster")
			.properties(properties)
			.run();
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(context, path)).GET());
	}

	private HttpResponse<String> delete(ConfigurableApplicationContext context, String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(context, path)).DELETE());
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		return this.http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(ConfigurableApplicationContext context, String path) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return URI.create("http://127.0.0.1:" + port + path);
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class WebApplication {

		@Bean
		Stocktake stocktake() {
			return new Stocktake();
		}

		@Bean
		AuditEvents auditEvents() {
			return new AuditEvents();
		}

	}

	/**
	 * The audit events published, as Boot's {@code AuditListener} receives them to store in the
	 * application's {@code AuditEventRepository}.
	 */
	static class AuditEvents implements ApplicationListener<AuditApplicationEvent> {

		final List<AuditEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(AuditApplicationEvent event) {
			this.events.add(event.getAuditEvent());
		}

	}

	static class Stocktake {

		final CountDownLatch holds = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		volatile long token;

		@ZkLocked(key = "'stock:' + #sku")
		public long count(String sku) throws InterruptedException {
			this.token = ZkLockContext.current().fencingToken();
			this.holds.countDown();
			this.release.await(60, TimeUnit.SECONDS);
			return this.token;
		}

		public boolean awaitHolding() throws InterruptedException {
			return this.holds.await(30, TimeUnit.SECONDS);
		}

		public void finish() {
			this.release.countDown();
		}

		public long token() {
			return this.token;
		}

	}

}
