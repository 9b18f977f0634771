package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import dev.zklock.LockLostException;
import dev.zklock.ZkLockTemplate;

/**
 * A holder in its own process, for pause tests: takes the lock, says so, keeps it for the given
 * time on the wall clock, and prints how its call ended.
 * <p>
 * Arguments: connect string, key, session timeout in ms, hold time in ms.
 */
public final class PausedHolderMain {

	private PausedHolderMain() {
	}

	public static void main(String[] args) throws Exception {
		String connectString = args[0];
		String key = args[1];
		int sessionTimeout = Integer.parseInt(args[2]);
		long holdMillis = Long.parseLong(args[3]);
		try (CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeout)
			.connectionTimeoutMs(sessionTimeout)
			.retryPolicy(new ExponentialBackoffRetry(50, 3, 500))
			.build()) {
			client.start();
			client.blockUntilConnected(20, TimeUnit.SECONDS);
			try (ZkLockTemplate template = new ZkLockTemplate(client, "/zklock/locks", Duration.ofSeconds(20), false)) {
				String result = template.execute(key, (lock) -> {
					System.out.println("HOLDING " + lock.fencingToken());
					long until = System.currentTimeMillis() + holdMillis;
					while (System.currentTimeMillis() < until) {
						Thread.sleep(20);
					}
					return "ok";
				});
				System.out.println("RESULT " + result);
			}
			catch (LockLostException ex) {
				System.out.println("RESULT lost: " + ex.getMessage());
			}
		}
		System.out.flush();
	}

}
