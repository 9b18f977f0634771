package dev.zklock.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every request the port sends is answered, even when the client throws while sending it:
 * Curator logs such a failure and calls no callback unless the request names a listener for
 * it, and a request left unanswered would leave a lock call waiting forever, or a released lock
 * node in place. Against a real server, with a client whose sends fail on demand.
 */
@EmbeddedZooKeeper
@Timeout(60)
class CuratorPortSendFaultTests {

	private static final byte[] DATA = "owner".getBytes(StandardCharsets.UTF_8);

	private final SendFaults faults = new SendFaults();

	private ScheduledExecutorService scheduler;

	private CuratorFramework client;

	private CuratorPort port;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) throws Exception {
		this.scheduler = Executors.newSingleThreadScheduledExecutor();
		this.client = this.faults.client(server.getConnectString());
		this.client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/port/key/node");
		this.port = new CuratorPort(this.client, this.scheduler);
	}

	@AfterEach
	void tearDown() {
		this.client.close();
		this.scheduler.shutdownNow();
	}

	@Test
	void aLockNodeCreateThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("create", (answered) -> this.port.createLockNode("/port/key/lock-", DATA, (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aKeyAndLockNodeTransactionThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("multi", (answered) -> this.port.createKeyAndLockNode("/port/other",
				"/port/other/_c_8e1c4ab4-d2f7-4d8e-9a33-2f1c1f2b6a51-lock-", DATA, (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aSequentialNodeCreateThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("create", (answered) -> this.port.createSequentialNode("/port/key/n-", DATA, (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aContainersCreateThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("create", (answered) -> this.port.createContainers("/port/new/path", (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aChildrenReadThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("getChildren", (answered) -> this.port.getChildren("/port/key", null, (rc, value) -> answered.complete(rc)));
		assertAnsweredWithAFailure("getChildren", (answered) -> this.port.getChildren("/port/key", () -> {
		}, (rc, value) -> answered.complete(rc)));
	}

	@Test
	void anExistsThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("exists", (answered) -> this.port.exists("/port/key/node", null, (rc, value) -> answered.complete(rc)));
		assertAnsweredWithAFailure("exists", (answered) -> this.port.exists("/port/key/node", () -> {
		}, (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aDataReadThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("getData", (answered) -> this.port.getData("/port/key/node", (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aTouchThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("setData", (answered) -> this.port.touch("/port/key", DATA, (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aSyncThatCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("sync", (answered) -> this.port.syncAndRead("/port/key/node", (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aSyncWhoseReadCannotBeSentIsAnswered() {
		assertAnsweredWithAFailure("exists", (answered) -> this.port.syncAndRead("/port/key/node", (rc, value) -> answered.complete(rc)));
	}

	@Test
	void aDeleteThatCannotBeSentIsSentAgainAndAnswered() throws Exception {
		String path = this.client.create().withMode(CreateMode.EPHEMERAL).forPath("/port/key/held", DATA);
		this.faults.fail("delete", 3);
		CompletableFuture<Code> answered = new CompletableFuture<>();
		this.port.delete(path, (rc, nothing) -> answered.complete(rc));
		assertThat(answered.get(20, TimeUnit.SECONDS)).isEqualTo(Code.OK);
		assertThat(this.faults.thrown()).isEqualTo(3);
		assertThat(this.client.checkExists().forPath(path)).as("the node the delete was for").isNull();
	}

	@Test
	void aDeleteWithoutAReplyThatCannotBeSentIsSentAgain() throws Exception {
		String path = this.client.create().withMode(CreateMode.EPHEMERAL).forPath("/port/key/held", DATA);
		this.faults.fail("delete", 1);
		this.port.delete(path, null);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (this.client.checkExists().forPath(path) != null && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(this.faults.thrown()).isEqualTo(1);
		assertThat(this.client.checkExists().forPath(path)).as("the node the delete was for").isNull();
	}

	private void assertAnsweredWithAFailure(String kind, Consumer<CompletableFuture<Code>> request) {
		int before = this.faults.thrown();
		this.faults.fail(kind, 1);
		CompletableFuture<Code> answered = new CompletableFuture<>();
		request.accept(answered);
		assertThat(answered).as("the answer to a %s request the client could not send", kind)
			.succeedsWithin(java.time.Duration.ofSeconds(10))
			.isNotEqualTo(Code.OK);
		assertThat(this.faults.thrown()).isEqualTo(before + 1);
	}

}
