package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;

/**
 * An instance in its own process that keeps a lock, for kill and pause tests: locks the key once
 * (the lock is then kept), says so, waits the given time on the wall clock, locks the key again
 * and prints when that second grant came and its token.
 * <p>
 * Arguments: connect string, key, session timeout in ms, wait before the second call in ms.
 */
public final class KeptLockMain {

	private KeptLockMain() {
	}

	public static void main(String[] args) throws Exception {
		String connectString = args[0];
		String key = args[1];
		int sessionTimeout = Integer.parseInt(args[2]);
		long waitMillis = Long.parseLong(args[3]);
		LockSettings keep = new LockSettings(true, 32, Duration.ofMillis(100), Duration.ofMinutes(5), 10);
		try (CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeout)
			.connectionTimeoutMs(sessionTimeout)
			.retryPolicy(new ExponentialBackoffRetry(50, 3, 500))
			.build()) {
			client.start();
			client.blockUntilConnected(20, TimeUnit.SECONDS);
			try (ZkLockTemplate template = new ZkLockTemplate(client, "/zklock/locks", Duration.ofSeconds(60), false,
					LockCallListener.NONE, keep)) {
				long first = template.execute(key, HeldLock::fencingToken);
				System.out.println("KEPT " + first + " " + template.keptLocks().size());
				long until = System.currentTimeMillis() + waitMillis;
				while (System.currentTimeMillis() < until) {
					Thread.sleep(20);
				}
				try {
					String again = template.execute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(60),
							(lock) -> System.currentTimeMillis() + " " + lock.fencingToken());
					System.out.println("AGAIN " + again + " reuses=" + template.lockCounts().reuses());
				}
				catch (LockLostException ex) {
					System.out.println("AGAIN lost: " + ex.getMessage());
				}
			}
		}
		System.out.flush();
	}

}
