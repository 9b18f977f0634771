package dev.zklock.leader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * Application instances started against one ZooKeeper server, as separate Spring applications
 * with their own clients and sessions, closed together.
 */
final class Instances implements AutoCloseable {

	private final String connectString;

	private final String basePath;

	private final List<Instance> started = new CopyOnWriteArrayList<>();

	Instances(String connectString, String basePath) {
		this.connectString = connectString;
		this.basePath = basePath;
	}

	Instance start(String name, String... properties) {
		return start(name, LeaderTestApplication.class, properties);
	}

	Instance start(String name, Class<?> configuration, String... properties) {
		return startVia(this.connectString, name, configuration, properties);
	}

	/**
	 * Start an instance that reaches ZooKeeper at another address, such as a proxy.
	 */
	Instance startVia(String connectString, String name, Class<?> configuration, String... properties) {
		List<String> all = new ArrayList<>(List.of("zklock.connect-string=" + connectString,
				"zklock.session-timeout=2s", "zklock.connection-timeout=2s", "zklock.leader.base-path=" + this.basePath,
				"spring.application.name=" + name, "spring.main.banner-mode=off"));
		all.addAll(List.of(properties));
		Instance instance = new Instance(name, new SpringApplicationBuilder(LeaderTestApplication.class, configuration)
			.web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run());
		this.started.add(instance);
		return instance;
	}

	@Override
	public void close() {
		List<Instance> instances = new ArrayList<>(this.started);
		for (int i = instances.size() - 1; i >= 0; i--) {
			instances.get(i).close();
		}
	}

}
