package dev.zklock.cluster;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;

/**
 * A holder in its own process that watches its control node, for forced-release tests: takes
 * the lock, says so with its token, keeps it for the given time on the wall clock, says when it
 * was told it lost the lock, and prints how its call ended.
 * <p>
 * Arguments: connect string, key, participant id, session timeout in ms, hold time in ms.
 */
public final class ReleasedHolderMain {

	private ReleasedHolderMain() {
	}

	public static void main(String[] args) throws Exception {
		String connectString = args[0];
		String key = args[1];
		String participant = args[2];
		int sessionTimeout = Integer.parseInt(args[3]);
		long holdMillis = Long.parseLong(args[4]);
		LockCallListener listener = new LockCallListener() {

			@Override
			public LockCall callStarted(String name, List<String> keys, LockMode mode) {
				return LockCall.NONE;
			}

			@Override
			public void lockLost(String lostKey, LockMode mode) {
				System.out.println("LOST " + System.currentTimeMillis());
			}

		};
		try (CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeout)
			.connectionTimeoutMs(sessionTimeout)
			.retryPolicy(new ExponentialBackoffRetry(50, 3, 500))
			.build()) {
			client.start();
			client.blockUntilConnected(20, TimeUnit.SECONDS);
			try (ZkLockTemplate template = new ZkLockTemplate(client, "/zklock/locks", Duration.ofSeconds(20), false,
					listener, LockSettings.DEFAULTS)) {
				template.setParticipantId(participant);
				try (InstanceControl control = new InstanceControl(client, "/zklock/locks", template,
						ForcedReleaseListener.NONE)) {
					control.start();
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
		}
		System.out.flush();
	}

}
