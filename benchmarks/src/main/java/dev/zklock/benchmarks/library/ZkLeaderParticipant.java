package dev.zklock.benchmarks.library;

import java.time.Duration;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.ZkLeadership;
import dev.zklock.benchmarks.spring.LeaderWork;
import dev.zklock.benchmarks.spring.LeaderWorkApplication;
import dev.zklock.benchmarks.spring.SpringApps;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A participant using zklock's {@code @ZkLeader}: a Spring Boot application with an annotated
 * bean, auto-configured from properties; it learns of its leadership from a
 * {@code LeadershipGrantedEvent}.
 */
final class ZkLeaderParticipant implements Participation {

	private final ConfigurableApplicationContext application;

	private final String group;

	private final ZkLeadership leadership;

	private final LeaderWork work;

	ZkLeaderParticipant(String connectString, Duration sessionTimeout, String basePath, String group,
			Runnable onLeader) {
		ApplicationListener<ApplicationEvent> listener = (event) -> {
			if (event instanceof LeadershipGrantedEvent granted && granted.getGroup().equals(group)) {
				onLeader.run();
			}
		};
		this.application = SpringApps.run(null,
				Map.of("zklock.connect-string", connectString, "zklock.session-timeout",
						sessionTimeout.toMillis() + "ms", "zklock.leader.base-path", basePath,
						LeaderWork.GROUP_PROPERTY, group),
				LeaderWorkApplication.class, listener);
		this.group = group;
		this.leadership = this.application.getBean(ZkLeadership.class);
		this.work = this.application.getBean(LeaderWork.class);
	}

	@Override
	public int sessionTimeoutMillis() {
		try {
			CuratorFramework client = this.application.getBean(CuratorFramework.class);
			return client.getZookeeperClient().getZooKeeper().getSessionTimeout();
		}
		catch (Exception ex) {
			return -1;
		}
	}

	@Override
	public boolean isLeader() {
		return this.leadership.isLeader(this.group);
	}

	@Override
	public Runnable leaderOnly(Guard guard, Runnable work) {
		ZkLeadership leadership = this.leadership;
		String group = this.group;
		LeaderWork proxy = this.work;
		return switch (guard) {
			case INLINE -> () -> {
				if (leadership.isLeader(group)) {
					work.run();
				}
			};
			case PROXIED -> () -> proxy.run(work);
		};
	}

	@Override
	public void close() {
		this.application.close();
	}

}
