package dev.zklock.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import dev.zklock.zookeeper.SendFaults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lock calls of two instances against a real server, one of them with a client that fails to
 * send a request now and then (its handle throws before the request goes out, as under
 * BlockHound when a non-blocking thread finds the client's queue lock taken): the call still
 * gets its lock, and a release still frees the key for the other instance.
 */
@EmbeddedZooKeeper
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
class SendFaultLockTests {

	private final SendFaults faults = new SendFaults();

	private LockTestSupport support;

	private CuratorFramework faulty;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) throws Exception {
		this.support = new LockTestSupport(server);
		this.faulty = this.faults.client(server.getConnectString());
	}

	@AfterEach
	void tearDown() throws Exception {
		this.support.close();
		this.faulty.close();
	}

	@Test
	void aReleaseWhoseDeleteCannotBeSentStillFreesTheKey() {
		ZkLockTemplate first = this.support.template(this.faulty, false);
		ZkLockTemplate second = this.support.template();
		String key = "release-send-fault";
		first.execute(key, (lock) -> {
			// The release's transaction (its node and the key node), then the delete of its node
			// alone that follows the transaction's failure.
			this.faults.fail("multi", 1);
			this.faults.fail("delete", 1);
			return null;
		});
		Optional<String> ran = second.tryExecute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(20), (lock) -> "second");
		assertThat(this.faults.thrown()).as("releases the client could not send").isEqualTo(2);
		assertThat(ran).as("the other instance's call after the release").contains("second");
	}

	@Test
	void aCallWhoseLockNodeCannotBeCreatedTriesAgain(CapturedOutput output) throws Exception {
		ZkLockTemplate first = this.support.template(this.faulty, false);
		String key = "create-send-fault";
		ZkLockTemplate second = this.support.template();
		// The first use of the key, then a use of a key node that exists (another instance holds
		// the key shared meanwhile): one failure each.
		this.faults.fail("multi", 1);
		assertThat(first.tryExecute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(20), (lock) -> "first-use"))
			.contains("first-use");
		second.execute(key, LockMode.SHARED, null, (held) -> {
			this.faults.fail("create", 1);
			// On a thread of its own: on this one, the call would be a reentrant call inside the
			// held key.
			CompletableFuture<Optional<String>> call = CompletableFuture.supplyAsync(
					() -> first.tryExecute(key, LockMode.SHARED, Duration.ofSeconds(20), (lock) -> "existing-key"));
			assertThat(call.get(30, TimeUnit.SECONDS)).contains("existing-key");
			return null;
		});
		assertThat(this.faults.thrown()).as("requests the client could not send").isEqualTo(2);
		assertThat(output).doesNotContain("failed; trying again");
	}

}
