package dev.zklock.benchmarks.spring;

import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the benchmark applications: no web server, no banner, closed by whoever starts them.
 */
public final class SpringApps {

	private SpringApps() {
	}

	/**
	 * Run an application.
	 * @param client a started client for the application to use instead of creating its own, as a
	 * user's own {@code CuratorFramework} bean would be; {@code null} to let the
	 * auto-configuration create one from the properties
	 * @param properties the application's properties
	 * @param listeners listeners of the application's events
	 * @param source the application's configuration class
	 * @return the running application
	 */
	public static ConfigurableApplicationContext run(@Nullable CuratorFramework client, Map<String, Object> properties,
			Class<?> source, ApplicationListener<?>... listeners) {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(source).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.registerShutdownHook(false)
			.properties(properties)
			.listeners(listeners);
		if (client != null) {
			builder.initializers((context) -> context.getBeanFactory().registerSingleton("curatorFramework", client));
		}
		return builder.run();
	}

}
