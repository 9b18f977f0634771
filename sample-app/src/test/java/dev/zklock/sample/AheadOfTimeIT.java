package dev.zklock.sample;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample as Spring's ahead-of-time processing leaves it ({@code spring-boot:process-aot}, run
 * by the {@code aot} profile before this test), started as a process of its own on the JVM with
 * {@code -Dspring.aot.enabled=true}, on its embedded ZooKeeper server: its bean definitions come
 * from the generated code, not from scanning and conditions. It must still advise the
 * {@code @ZkLocked} methods with their SpEL keys, run the {@code @ZkLeader} report and start the
 * {@code @ZkLeaderComponent} feed on the leader, and answer on the {@code zklock} endpoint. The build must also have made the advised beans' proxies
 * and written zklock's runtime hints into the reachability metadata, as a native image needs them.
 * Only with {@code -Paot}:
 * {@code ./mvnw -B -Paot -pl sample-app -am verify -Dtest=AheadOfTimeIT -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class AheadOfTimeIT {

	private static final Duration STARTUP = Duration.ofSeconds(90);

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	private final Path run = Path.of("target", "aot-run");

	@Test
	void theProcessedApplicationLocksLeadsAndReports() throws Exception {
		Path classes = Path.of(System.getProperty("zklock.aot.classes", "target/classes"));
		assertThat(classes.resolve("dev/zklock/sample/InventoryApplication__ApplicationContextInitializer.class"))
			.as("the code that process-aot generates")
			.exists();
		theBuildKeptWhatANativeImageNeeds();
		Files.createDirectories(this.run);
		Path log = this.run.resolve("application.log");
		Process application = start(classes, log);
		try {
			Http http = new Http(awaitPort(application, log));
			assertThat(Files.readString(log)).contains("Starting AOT-processed InventoryApplication");
			reservesUnderTheSkusLock(http);
			aLockHeldElsewhereMakesTheOtherCallersSkip(http);
			theReportAndTheFeedRunOnTheLeader(http);
			assertThat(http.get("/actuator/health").body().path("components").path("zookeeper").path("status")
				.asString()).isEqualTo("UP");
		}
		finally {
			application.destroy();
			if (!application.waitFor(30, TimeUnit.SECONDS)) {
				application.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		assertThat(Files.readString(log)).as("the application's output (%s)", log).doesNotContain("ERROR");
	}

	private void theBuildKeptWhatANativeImageNeeds() throws IOException {
		Path generated = Path.of(System.getProperty("zklock.aot.generated", "target/spring-aot/main"));
		assertThat(generated.resolve("classes/dev/zklock/sample/stock/InventoryService$$SpringCGLIB$$0.class"))
			.as("the proxy of the @ZkLocked service, made at build time")
			.exists();
		assertThat(generated.resolve("classes/dev/zklock/sample/report/LowStockReport$$SpringCGLIB$$0.class"))
			.as("the proxy of the @ZkLeader report, made at build time")
			.exists();
		Path metadata = generated
			.resolve("resources/META-INF/native-image/dev.zklock/zklock-sample-app/reachability-metadata.json");
		List<String> reflected = JsonMapper.builder()
			.build()
			.readTree(metadata.toFile())
			.path("reflection")
			.valueStream()
			.map((entry) -> entry.path("type").asString())
			.toList();
		assertThat(reflected).as("types in %s", metadata)
			.contains("org.apache.zookeeper.ClientCnxnSocketNIO", "org.apache.zookeeper.ClientCnxnSocketNetty",
					"dev.zklock.lock.aop.LockKeyRoot", "dev.zklock.actuate.ZkLockEndpoint$ZkLockDescriptor");
	}

	private void reservesUnderTheSkusLock(Http http) {
		Http.Response first = http.post("/stock/sku-1/reserve?qty=3");
		assertThat(first.status()).isEqualTo(200);
		assertThat(first.number("available")).isEqualTo(97);
		Http.Response second = http.post("/stock/sku-1/reserve?qty=3");
		assertThat(second.number("fencingToken")).as("a later grant of the same key has a larger token")
			.isGreaterThan(first.number("fencingToken"));
	}

	private void aLockHeldElsewhereMakesTheOtherCallersSkip(Http http) throws Exception {
		CompletableFuture<Http.Response> stocktake = CompletableFuture
			.supplyAsync(() -> http.post("/stock/sku-2/stocktake?seconds=6"));
		JsonNode held = await().atMost(Duration.ofSeconds(20))
			.until(() -> http.get("/actuator/zklock").body().path("locks").path("held"),
					(locks) -> locks.size() == 1);
		assertThat(held.path(0).path("key").asString()).as("the key expression's value").isEqualTo("stock:sku-2");
		assertThat(held.path(0).path("mode").asString()).isEqualTo("EXCLUSIVE");
		assertThat(held.path(0).path("fencingToken").asLong()).isPositive();
		Http.Response skipped = http.post("/stock/sku-2/restock-if-free?qty=5");
		assertThat(skipped.status()).isEqualTo(409);
		assertThat(skipped.text("error")).isEqualTo("skipped");
		assertThat(http.post("/stock/sku-1/reserve?qty=1").status()).as("another SKU's lock is free").isEqualTo(200);
		assertThat(stocktake.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
		assertThat(http.post("/stock/sku-2/restock-if-free?qty=5").number("available")).isEqualTo(25);
	}

	private void theReportAndTheFeedRunOnTheLeader(Http http) {
		JsonNode leadership = http.get("/actuator/zklock").body().path("leadership");
		assertThat(leadership.path("groups").path("inventory").path("leader").asBoolean()).isTrue();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> http.get("/leadership").body().path("lowStockReport").path("runsHere").asInt(),
					(runs) -> runs >= 2);
		JsonNode feed = await().atMost(Duration.ofSeconds(20))
			.until(() -> http.get("/actuator/zklock").body().path("leadership").path("groups").path("inventory")
				.path("components").path(0), (component) -> component.path("running").asBoolean());
		assertThat(feed.path("beanName").asString()).as("the @ZkLeaderComponent").isEqualTo("reorderFeed");
	}

	private Process start(Path classes, Path log) throws IOException {
		String dependencies = Files.readString(Path.of(System.getProperty("zklock.aot.classpath-file"))).strip();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = List.of(java, "-Dspring.aot.enabled=true", "-Xmx512m", "-cp",
				classes + File.pathSeparator + dependencies, "dev.zklock.sample.InventoryApplication",
				"--server.port=0", "--server.tomcat.basedir=" + this.run.resolve("tomcat").toAbsolutePath(),
				"--zklock.embedded.data-dir=" + this.run.resolve("zookeeper").toAbsolutePath(),
				"--inventory.report-interval=200ms");
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private int awaitPort(Process application, Path log) {
		return await().atMost(STARTUP).pollInterval(Duration.ofMillis(200)).until(() -> {
			assertThat(application.isAlive()).as("the application is running (its output: %s)", log).isTrue();
			Matcher matcher = PORT.matcher(Files.readString(log));
			return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
		}, (port) -> port > 0);
	}

}
