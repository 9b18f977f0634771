package dev.zklock.leader;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.LeadershipEvent;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What every application instance of the leadership tests has: the zklock auto-configuration
 * and a recorder of leadership events.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, ZkLeaderAutoConfiguration.class })
class LeaderTestApplication {

	@Bean
	LeadershipEventRecorder leadershipEventRecorder() {
		return new LeadershipEventRecorder();
	}

	static final class LeadershipEventRecorder implements ApplicationListener<LeadershipEvent> {

		private final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(LeadershipEvent event) {
			this.events.add(event);
		}

		List<LeadershipEvent> events() {
			return this.events;
		}

	}

}
