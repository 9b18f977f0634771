package dev.zklock.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.cluster.ManyKeys;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code zklockcluster} endpoint over more keys than one reply to the application's client
 * can carry (its default {@code jute.maxbuffer}, about 1 MB: some 24,000 names of 40
 * characters), on a real server, while the application holds a lock: every page answers, the
 * application's connection is never suspended and its lock stays valid. It runs only when the
 * system property {@value #KEYS_PROPERTY} says how many keys (the guide's figures are of
 * 100,000; past {@value #OVER_ONE_REPLY} one listing exceeds the default reply limit), as it
 * takes minutes; {@code ClusterViewBoundTests} proves the same bound in the normal build with a
 * client of a smaller reply limit. Each page's time and the requests the server received for it
 * are written to {@code target/zklockcluster-pages.txt}.
 */
@EmbeddedZooKeeper
@EnabledIfSystemProperty(named = ZkLockClusterEndpointManyKeysTests.KEYS_PROPERTY, matches = "\\d+")
@Timeout(900)
class ZkLockClusterEndpointManyKeysTests {

	static final String KEYS_PROPERTY = "zklock.test.view-keys";

	static final int OVER_ONE_REPLY = 24_000;

	private static final Pattern RECEIVED = Pattern.compile("^Received: (\\d+)", Pattern.MULTILINE);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void answersPageByPageWhileTheApplicationKeepsItsLock(ZooKeeperTestServer server) throws Exception {
		int keys = Integer.getInteger(KEYS_PROPERTY);
		String base = "/many-keys-tests/" + System.nanoTime();
		long seeding = System.nanoTime();
		try (CuratorFramework seeder = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new ExponentialBackoffRetry(50, 3))) {
			seeder.start();
			ManyKeys.create(seeder, base + "/locks", keys);
		}
		seeding = System.nanoTime() - seeding;
		try (ConfigurableApplicationContext application = new SpringApplicationBuilder(Application.class)
			.properties("server.address=127.0.0.1", "server.port=0", "spring.main.banner-mode=off",
					"zklock.connect-string=" + server.getConnectString(), "zklock.lock.base-path=" + base + "/locks",
					"zklock.leader.base-path=" + base + "/leaders",
					"management.endpoints.web.exposure.include=zklockcluster")
			.run()) {
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			application.getBean(CuratorFramework.class)
				.getConnectionStateListenable()
				.addListener((client, state) -> states.add(state));
			CountDownLatch holds = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<Boolean> held = this.executor.submit(() -> application.getBean(ZkLockTemplate.class)
				.executeOrElse("hold", List.of("held"), LockMode.EXCLUSIVE, null, (lock) -> {
					holds.countDown();
					release.await(500, TimeUnit.SECONDS);
					return lock.isValid();
				}, () -> false));
			assertThat(holds.await(30, TimeUnit.SECONDS)).isTrue();

			List<String> report = new ArrayList<>();
			List<String> seen = new ArrayList<>();
			String after = null;
			boolean more = true;
			long requests = 0;
			long nanos = 0;
			int pages = 0;
			while (more) {
				long receivedBefore = received(server);
				long start = System.nanoTime();
				String path = "/actuator/zklockcluster?limit=1000"
						+ ((after != null) ? "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8) : "");
				HttpResponse<String> response = get(application, path);
				long took = System.nanoTime() - start;
				long pageRequests = received(server) - receivedBefore;
				assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
				DocumentContext page = JsonPath.parse(response.body());
				List<String> shown = page.read("$.keys[*].key");
				seen.addAll(shown);
				more = page.read("$.more", Boolean.class);
				after = (String) page.read("$", Map.class).get("next");
				pages++;
				requests += pageRequests;
				nanos += took;
				report.add(String.format("page %d: %d keys, %d ms, %d requests", pages, shown.size(),
						TimeUnit.NANOSECONDS.toMillis(took), pageRequests));
			}
			report.add(0, String.format("%d keys (seeded in %d s), %d pages of up to 1000 keys: %d ms and %d requests "
					+ "a page on average", keys, TimeUnit.NANOSECONDS.toSeconds(seeding), pages,
					TimeUnit.NANOSECONDS.toMillis(nanos / pages), requests / pages));
			write(report);

			assertThat(seen).hasSize(keys + 1).startsWith("held").isSorted();
			assertThat(seen.get(keys)).isEqualTo(ManyKeys.key(keys - 1));
			assertThat(states).doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST);
			release.countDown();
			assertThat(held.get(30, TimeUnit.SECONDS)).as("the lock stayed valid").isTrue();
		}
	}

	private static long received(ZooKeeperTestServer server) throws Exception {
		String srvr = FourLetterWordMain.send4LetterWord("127.0.0.1", server.getPort(), "srvr", false, 5000);
		Matcher matcher = RECEIVED.matcher(srvr);
		assertThat(matcher.find()).as(srvr).isTrue();
		return Long.parseLong(matcher.group(1));
	}

	private static void write(List<String> report) throws IOException {
		Path file = Path.of("target", "zklockcluster-pages.txt");
		Files.createDirectories(file.getParent());
		Files.write(file, report);
		System.out.println(String.join(System.lineSeparator(), report));
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(120))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
