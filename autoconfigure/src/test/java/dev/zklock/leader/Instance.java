package dev.zklock.leader;

import java.util.List;

import dev.zklock.LeadershipEvent;
import dev.zklock.ZkLeadership;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * One running application instance of a leadership test, with its own ZooKeeper client and
 * session.
 */
final class Instance implements AutoCloseable {

	private final String name;

	private final ConfigurableApplicationContext context;

	private final ZkLeadership leadership;

	private final LeaderTestApplication.LeadershipEventRecorder events;

	Instance(String name, ConfigurableApplicationContext context) {
		this.name = name;
		this.context = context;
		this.leadership = context.getBean(ZkLeadership.class);
		this.events = context.getBean(LeaderTestApplication.LeadershipEventRecorder.class);
	}

	String name() {
		return this.name;
	}

	ZkLeadership leadership() {
		return this.leadership;
	}

	String id() {
		return this.leadership.participantId();
	}

	boolean isLeader(String group) {
		return this.leadership.isLeader(group);
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	CuratorFramework client() {
		return bean(CuratorFramework.class);
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	/**
	 * Return the leadership events this instance has published so far, in order, also after
	 * it was closed.
	 */
	List<LeadershipEvent> events(String group) {
		return this.events.events()
			.stream()
			.filter((event) -> event.getGroup().equals(group))
			.toList();
	}

	@Override
	public void close() {
		this.context.close();
	}

	@Override
	public String toString() {
		return this.name;
	}

}
