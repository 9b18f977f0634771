package dev.zklock.shedlock;

import java.time.Duration;
import java.util.List;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ShedLock's own provider tests, {@code AbstractExtensibleLockProviderIntegrationTest} (with
 * {@code AbstractLockProviderIntegrationTest}, which it extends) from shedlock-test-support
 * 6.6.1, unmodified, run against {@link ZkLockProvider} on a real ZooKeeper server. Whether a lock
 * is held is read from the server by another client: the key's node has a lock node.
 */
class ShedLockProviderSuiteTests extends AbstractExtensibleLockProviderIntegrationTest {

	private static final String BASE_PATH = "/shedlock-suite";

	private static TestingServer server;

	private static CuratorFramework observer;

	private CuratorFramework client;

	private ZkLockTemplate template;

	private ZkLockProvider provider;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer();
		observer = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
		observer.start();
	}

	@AfterAll
	static void stopServer() throws Exception {
		observer.close();
		server.close();
	}

	@BeforeEach
	void createProvider() {
		this.client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
		this.client.start();
		this.template = new ZkLockTemplate(this.client, BASE_PATH, Duration.ofSeconds(10), false);
		this.provider = new ZkLockProvider(this.template);
	}

	@AfterEach
	void closeProvider() {
		this.provider.close();
		this.template.close();
		this.client.close();
	}

	@Override
	protected ExtensibleLockProvider getLockProvider() {
		return this.provider;
	}

	/**
	 * The lock's node is gone: at once after an unlock, or a moment after {@code lockAtMostFor}
	 * ended a hung holder's lock, whose node is deleted on the provider's timer thread (the
	 * suite's {@code shouldTimeout} looks right after that time).
	 */
	@Override
	protected void assertUnlocked(String lockName) {
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(lockNodes(lockName)).as("lock nodes of %s", lockName).isEmpty());
	}

	@Override
	protected void assertLocked(String lockName) {
		assertThat(lockNodes(lockName)).as("lock nodes of %s", lockName).hasSize(1);
	}

	private static List<String> lockNodes(String lockName) {
		try {
			return observer.getChildren().forPath(BASE_PATH + "/" + LockKeys.encode(lockName));
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
