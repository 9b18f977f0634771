package dev.zklock.web;

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

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

import dev.zklock.LockMode;
import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lock and leadership failures over HTTP, in Spring MVC and in Spring WebFlux, against a real
 * ZooKeeper server: a key held by another instance answers 423 with a problem detail naming the
 * key and the wait, a call on an instance that is not the leader 503, ZooKeeper down 503.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ZkLockExceptionHandlerWebTests {

	private static final String WAIT = "300ms";

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	private final String basePath = "/web-errors/" + System.nanoTime();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@ParameterizedTest
	@EnumSource(names = { "SERVLET", "REACTIVE" })
	void aKeyHeldByAnotherInstanceAnswers423WithTheKeyAndTheWait(WebApplicationType type, ZooKeeperTestServer server)
			throws Exception {
		try (ConfigurableApplicationContext other = start(WebApplicationType.NONE, server);
				ConfigurableApplicationContext web = start(type, server)) {
			assertThat(post(web, type, "/accounts/7/debit").statusCode()).isEqualTo(200);
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<?> holder = this.executor.submit(() -> other.getBean(ZkLockTemplate.class)
				.execute("account:7", LockMode.EXCLUSIVE, null, (lock) -> {
					held.countDown();
					return release.await(60, TimeUnit.SECONDS);
				}));
			try {
				assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
				HttpResponse<String> response = post(web, type, "/accounts/7/debit");
				assertThat(response.statusCode()).isEqualTo(423);
				assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
						(contentType) -> assertThat(contentType).startsWith("application/problem+json"));
				DocumentContext problem = JsonPath.parse(response.body());
				assertThat(problem.read("$.type", String.class)).isEqualTo("urn:zklock:lock-timeout");
				assertThat(problem.read("$.title", String.class)).isEqualTo("Lock busy");
				assertThat(problem.read("$.status", Integer.class)).isEqualTo(423);
				assertThat(problem.read("$.detail", String.class)).contains("'account:7'").contains("300ms");
				assertThat(problem.read("$.key", String.class)).isEqualTo("account:7");
				assertThat(problem.read("$.waitTime", String.class)).isEqualTo(WAIT);
				assertThat(problem.read("$.instance", String.class)).endsWith("/accounts/7/debit");
			}
			finally {
				release.countDown();
			}
			holder.get(30, TimeUnit.SECONDS);
			assertThat(post(web, type, "/accounts/7/debit").statusCode()).isEqualTo(200);
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "SERVLET", "REACTIVE" })
	void aLeaderOnlyCallOnAnotherInstanceThanTheLeaderAnswers503(WebApplicationType type, ZooKeeperTestServer server)
			throws Exception {
		try (ConfigurableApplicationContext other = start(WebApplicationType.NONE, server)) {
			ZkLeadership leadership = other.getBean(ZkLeadership.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> leadership.isLeader("nightly"));
			try (ConfigurableApplicationContext web = start(type, server)) {
				HttpResponse<String> response = post(web, type, "/report");
				assertThat(response.statusCode()).isEqualTo(503);
				DocumentContext problem = JsonPath.parse(response.body());
				assertThat(problem.read("$.type", String.class)).isEqualTo("urn:zklock:not-leader");
				assertThat(problem.read("$.group", String.class)).isEqualTo("nightly");
				assertThat(problem.read("$.detail", String.class)).contains("'nightly'");
			}
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "SERVLET", "REACTIVE" })
	void zooKeeperDownAnswers503(WebApplicationType type) throws Exception {
		try (ZooKeeperTestServer own = ZooKeeperTestServer.start(500);
				ConfigurableApplicationContext web = start(type, own)) {
			assertThat(post(web, type, "/accounts/1/debit").statusCode()).isEqualTo(200);
			own.stop();
			CuratorFramework client = web.getBean(CuratorFramework.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> !client.getZookeeperClient().isConnected());
			HttpResponse<String> response = post(web, type, "/accounts/1/debit");
			assertThat(response.statusCode()).isEqualTo(503);
			DocumentContext problem = JsonPath.parse(response.body());
			assertThat(problem.read("$.type", String.class)).isEqualTo("urn:zklock:unavailable");
			assertThat(problem.read("$.detail", String.class)).contains("unreachable").contains("'account:1'");
		}
	}

	@Test
	void theApplicationsOwnHandlerWins(ZooKeeperTestServer server) throws Exception {
		try (ConfigurableApplicationContext other = start(WebApplicationType.NONE, server)) {
			ZkLeadership leadership = other.getBean(ZkLeadership.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> leadership.isLeader("nightly"));
			try (ConfigurableApplicationContext web = builder(WebApplicationType.SERVLET, server)
				.sources(OwnHandler.class)
				.run()) {
				HttpResponse<String> response = post(web, WebApplicationType.SERVLET, "/report");
				assertThat(response.statusCode()).isEqualTo(409);
				assertThat(JsonPath.parse(response.body()).read("$.title", String.class)).isEqualTo("Ask the leader");
			}
		}
	}

	@Test
	void canBeTurnedOff(ZooKeeperTestServer server) throws Exception {
		try (ConfigurableApplicationContext other = start(WebApplicationType.NONE, server)) {
			ZkLeadership leadership = other.getBean(ZkLeadership.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> leadership.isLeader("nightly"));
			try (ConfigurableApplicationContext web = builder(WebApplicationType.SERVLET, server)
				.properties("zklock.web.problem-details.enabled=false")
				.run()) {
				assertThat(web.getBeanNamesForType(ZkLockExceptionHandler.class)).isEmpty();
				assertThat(post(web, WebApplicationType.SERVLET, "/report").statusCode()).isEqualTo(500);
			}
		}
	}

	private ConfigurableApplicationContext start(WebApplicationType type, ZooKeeperTestServer server) {
		return builder(type, server).run();
	}

	private SpringApplicationBuilder builder(WebApplicationType type, ZooKeeperTestServer server) {
		return new SpringApplicationBuilder(WebApplication.class).web(type)
			.properties("server.address=127.0.0.1", "server.port=0", "spring.main.banner-mode=off",
					"zklock.connect-string=" + server.getConnectString(), "zklock.leader.groups=nightly",
					"zklock.leader.base-path=" + this.basePath + "/leader", "zklock.lock.base-path=" + this.basePath
							+ "/locks");
	}

	private HttpResponse<String> post(ConfigurableApplicationContext context, WebApplicationType type, String path)
			throws Exception {
		String prefix = (type == WebApplicationType.REACTIVE) ? "/reactive" : "";
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + prefix + path))
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(Duration.ofSeconds(30))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import({ Accounts.class, AccountController.class })
	static class WebApplication {

	}

	static class Accounts {

		@ZkLocked(key = "'account:' + #id", waitTime = WAIT)
		public String debit(String id) {
			return "debited " + id;
		}

		@ZkLocked(key = "'account:' + #id", waitTime = WAIT)
		public Mono<String> debitReactive(String id) {
			return Mono.just("debited " + id);
		}

		@ZkLeader(group = "nightly", whenNotLeader = WhenNotLeader.THROW)
		public String report() {
			return "report";
		}

		@ZkLeader(group = "nightly", whenNotLeader = WhenNotLeader.THROW)
		public Mono<String> reportReactive() {
			return Mono.just("report");
		}

	}

	/**
	 * The same endpoints, blocking for Spring MVC and reactive for Spring WebFlux.
	 */
	@RestController
	static class AccountController {

		private final Accounts accounts;

		AccountController(Accounts accounts) {
			this.accounts = accounts;
		}

		@PostMapping("/accounts/{id}/debit")
		String debit(@PathVariable String id) {
			return this.accounts.debit(id);
		}

		@PostMapping("/reactive/accounts/{id}/debit")
		Mono<String> debitReactive(@PathVariable String id) {
			return this.accounts.debitReactive(id);
		}

		@PostMapping("/report")
		String report() {
			return this.accounts.report();
		}

		@PostMapping("/reactive/report")
		Mono<String> reportReactive() {
			return this.accounts.reportReactive();
		}

	}

	@RestControllerAdvice
	static class OwnHandler {

		@ExceptionHandler
		ProblemDetail notLeader(dev.zklock.NotLeaderException ex) {
			ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.CONFLICT);
			problem.setTitle("Ask the leader");
			return problem;
		}

	}

}
