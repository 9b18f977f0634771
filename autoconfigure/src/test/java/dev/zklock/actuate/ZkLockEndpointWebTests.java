package dev.zklock.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code zklock} endpoint over HTTP in a web application with every auto-configuration
 * (metrics and observations included): hidden by default, read-only once exposed, and able to
 * yield once access is unrestricted.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ZkLockEndpointWebTests {

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void isNotExposedOverHttpByDefault(ZooKeeperTestServer server) throws Exception {
		try (ConfigurableApplicationContext context = start(server)) {
			assertThat(get(context, "/actuator/health").statusCode()).isEqualTo(200);
			assertThat(get(context, "/actuator/zklock").statusCode()).isEqualTo(404);
			assertThat(post(context, "/actuator/zklock/nightly").statusCode()).isEqualTo(404);
		}
	}

	@Test
	void onceExposedShowsHeldLocksAsJsonButDoesNotYield(ZooKeeperTestServer server) throws Exception {
		try (ConfigurableApplicationContext context = start(server,
				"management.endpoints.web.exposure.include=zklock")) {
			ZkLeadership leadership = context.getBean(ZkLeadership.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> leadership.isLeader("nightly"));
			long epoch = leadership.epoch("nightly").orElseThrow();
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CountDownLatch release = new CountDownLatch(1);
			AtomicReference<HeldLock> inside = new AtomicReference<>();
			Future<?> call = this.executor.submit(() -> template.execute("stock:7", (lock) -> {
				inside.set(lock);
				return release.await(60, TimeUnit.SECONDS);
			}));
			try {
				await().atMost(Duration.ofSeconds(30)).until(() -> inside.get() != null);
				HttpResponse<String> response = get(context, "/actuator/zklock");
				assertThat(response.statusCode()).isEqualTo(200);
				DocumentContext json = JsonPath.parse(response.body());
				assertThat(json.read("$.connection.state", String.class)).isEqualTo("CONNECTED");
				assertThat(json.read("$.locks.held[0].key", String.class)).isEqualTo("stock:7");
				assertThat(json.read("$.locks.held[0].mode", String.class)).isEqualTo("EXCLUSIVE");
				assertThat(json.read("$.locks.held[0].fencingToken", Long.class))
					.isEqualTo(inside.get().fencingToken());
				assertThat(json.read("$.locks.held[0].state", String.class)).isEqualTo("VALID");
				assertThat(json.read("$.locks.held[0].since", String.class)).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
				assertThat(json.read("$.locks.waiting.length()", Integer.class)).isZero();
				assertThat(json.read("$.leadership.groups.nightly.leader", Boolean.class)).isTrue();
				assertThat(json.read("$.leadership.groups.nightly.epoch", Long.class)).isEqualTo(epoch);
			}
			finally {
				release.countDown();
			}
			call.get(30, TimeUnit.SECONDS);
			DocumentContext after = JsonPath.parse(get(context, "/actuator/zklock").body());
			assertThat(after.read("$.locks.held.length()", Integer.class)).isZero();
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("zklock.lock.wait")
				.tags("mode", "exclusive", "outcome", "acquired")
				.timer()
				.count()).isOne();
			assertThat(registry.get("zklock.lock.hold").tags("mode", "exclusive").timer().count()).isOne();
			assertThat(registry.get("zklock.lock.acquire").tags("zklock.lock.outcome", "acquired").timer().count())
				.as("timer of the observation").isOne();
			assertThat(registry.get("zklock.leader").tags("group", "nightly").gauge().value()).isOne();
			assertThat(get(context, "/actuator/zklock/nightly").statusCode()).isEqualTo(200);
			assertThat(post(context, "/actuator/zklock/nightly").statusCode()).isEqualTo(405);
			assertThat(leadership.isLeader("nightly")).isTrue();
			assertThat(leadership.epoch("nightly")).hasValue(epoch);
		}
	}

	@Test
	void yieldsOnceAccessIsUnrestricted(ZooKeeperTestServer server) throws Exception {
		try (ConfigurableApplicationContext context = start(server, "management.endpoints.web.exposure.include=zklock",
				"management.endpoint.zklock.access=unrestricted")) {
			ZkLeadership leadership = context.getBean(ZkLeadership.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> leadership.isLeader("nightly"));
			long epoch = leadership.epoch("nightly").orElseThrow();
			HttpResponse<String> response = post(context, "/actuator/zklock/nightly");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(JsonPath.parse(response.body()).read("$.yielded", Boolean.class)).isTrue();
			// The only participant leads again, in a new term.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> leadership.isLeader("nightly") && leadership.epoch("nightly").orElseThrow() > epoch);
			assertThat(post(context, "/actuator/zklock/elsewhere").statusCode()).isEqualTo(400);
			assertThat(get(context, "/actuator/zklock/elsewhere").statusCode()).isEqualTo(404);
		}
	}

	private ConfigurableApplicationContext start(ZooKeeperTestServer server, String... properties) {
		return new SpringApplicationBuilder(WebApplication.class)
			.properties("server.address=127.0.0.1", "server.port=0", "spring.main.banner-mode=off",
					"zklock.connect-string=" + server.getConnectString(), "zklock.leader.groups=nightly",
					"zklock.leader.base-path=/web-tests/" + System.nanoTime())
			.properties(properties)
			.run();
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(context, path)).GET());
	}

	private HttpResponse<String> post(ConfigurableApplicationContext context, String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(context, path)).POST(HttpRequest.BodyPublishers.noBody()));
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

	}

}
