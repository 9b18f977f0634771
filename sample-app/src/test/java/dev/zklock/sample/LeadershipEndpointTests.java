package dev.zklock.sample;

import java.time.Duration;

import dev.zklock.ZkLeadership;
import dev.zklock.sample.report.LowStockReport;
import dev.zklock.sample.report.ReorderFeed;
import dev.zklock.test.EmbeddedZooKeeper;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /leadership}, the leader-only low-stock report, and the operations view of a
 * single instance: the {@code zookeeper} health component, the read-only {@code zklock}
 * endpoint and the zklock metrics.
 */
@EmbeddedZooKeeper
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "zklock.embedded.enabled=false", "inventory.report-interval=100ms" })
class LeadershipEndpointTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ZkLeadership leadership;

	@Autowired
	private LowStockReport report;

	@Autowired
	private ReorderFeed feed;

	@Test
	void leadershipShowsThisInstanceLeadingTheApplicationsGroup() {
		String id = this.leadership.participantId();
		Http.Response response = new Http(this.port).get("/leadership");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.text("participantId")).isEqualTo(id).startsWith("inventory@");
		JsonNode group = response.body().path("groups").path(0);
		assertThat(group.path("group").asString()).isEqualTo("inventory");
		assertThat(group.path("leader").asBoolean()).isTrue();
		assertThat(group.path("currentLeader").asString()).isEqualTo(id);
		assertThat(group.path("participants").values()).extracting(JsonNode::asString).containsExactly(id);
		assertThat(group.path("epoch").asLong()).isPositive();
	}

	@Test
	void theLowStockReportRunsOnTheLeader() {
		await().atMost(Duration.ofSeconds(20)).until(() -> this.report.runs() >= 2);
		Http.Response response = new Http(this.port).get("/leadership");
		assertThat(response.body().path("lowStockReport").path("runsHere").asInt()).isGreaterThanOrEqualTo(2);
	}

	@Test
	void theReorderFeedRunsOnTheLeader() {
		await().atMost(Duration.ofSeconds(20)).until(() -> this.feed.rounds() >= 1);
		JsonNode component = new Http(this.port).get("/actuator/zklock")
			.body()
			.path("leadership")
			.path("groups")
			.path("inventory")
			.path("components")
			.path(0);
		assertThat(component.path("beanName").asString()).isEqualTo("reorderFeed");
		assertThat(component.path("running").asBoolean()).isTrue();
	}

	@Test
	void healthShowsTheZooKeeperConnection() {
		Http.Response response = new Http(this.port).get("/actuator/health");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body().path("components").path("zookeeper").path("status").asString()).isEqualTo("UP");
	}

	@Test
	void theZkLockEndpointIsExposedReadOnly() {
		Http http = new Http(this.port);
		Http.Response response = http.get("/actuator/zklock");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body().path("connection").path("state").asString()).isEqualTo("CONNECTED");
		assertThat(response.body().path("leadership").path("groups").path("inventory").path("leader").asBoolean())
			.isTrue();
		assertThat(http.post("/actuator/zklock/inventory").status()).isEqualTo(405);
		assertThat(this.leadership.isLeader("inventory")).isTrue();
	}

	@Test
	void zklockMetricsAreExposed() {
		Http http = new Http(this.port);
		assertThat(http.post("/stock/sku-1/reserve?qty=1").status()).isEqualTo(200);
		Http.Response response = http.get("/actuator/metrics/zklock.lock.wait?tag=outcome:acquired");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body().path("measurements").path(0).path("statistic").asString()).isEqualTo("COUNT");
		assertThat(response.body().path("measurements").path(0).path("value").asDouble()).isGreaterThanOrEqualTo(1);
	}

}
