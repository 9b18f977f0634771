package dev.zklock.benchmarks.library;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;

/**
 * A participant using Curator's {@code LeaderLatch} directly: leader-only code is guarded by
 * {@code hasLeadership()}.
 */
final class CuratorLeaderLatch implements Participation {

	private final CuratorFramework client;

	private final LeaderLatch latch;

	CuratorLeaderLatch(String connectString, Duration sessionTimeout, String path, Runnable onLeader) {
		this.client = CuratorClients.connect(connectString, sessionTimeout);
		this.latch = new LeaderLatch(this.client, path);
		this.latch.addListener(new LeaderLatchListener() {

			@Override
			public void isLeader() {
				onLeader.run();
			}

			@Override
			public void notLeader() {
			}

		});
		try {
			this.latch.start();
		}
		catch (Exception ex) {
			this.client.close();
			throw new IllegalStateException("Could not join the election at " + path, ex);
		}
	}

	@Override
	public int sessionTimeoutMillis() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionTimeout();
		}
		catch (Exception ex) {
			return -1;
		}
	}

	@Override
	public boolean isLeader() {
		return this.latch.hasLeadership();
	}

	@Override
	public Runnable leaderOnly(Guard guard, Runnable work) {
		LeaderLatch latch = this.latch;
		return switch (guard) {
			case INLINE -> () -> {
				if (latch.hasLeadership()) {
					work.run();
				}
			};
			case PROXIED -> {
				HandWrittenLeaderCheck.LeaderOnlyWork proxy = HandWrittenLeaderCheck.proxy(latch::hasLeadership);
				yield () -> proxy.run(work);
			}
		};
	}

	@Override
	public void close() {
		try {
			this.latch.close();
		}
		catch (Exception ex) {
			// Leaving with the session below.
		}
		finally {
			this.client.close();
		}
	}

}
