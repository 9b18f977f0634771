package dev.zklock.test;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Hands the address of the {@link EmbeddedZooKeeper} server to the Spring application contexts
 * of the test class, as {@code zklock.connect-string}.
 */
class EmbeddedZooKeeperContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		if (!EmbeddedZooKeeperServers.isAnnotated(testClass)) {
			return null;
		}
		return new Customizer(EmbeddedZooKeeperServers.annotatedClass(testClass));
	}

	/**
	 * Equal only for the same annotated class, so that a context is never shared with a test
	 * class that runs against another server.
	 */
	private record Customizer(Class<?> annotatedClass) implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			ZooKeeperTestServer server = EmbeddedZooKeeperServers.start(this.annotatedClass);
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("embeddedZooKeeper",
						Map.of("zklock.connect-string", server.getConnectString())));
			EmbeddedZooKeeperServers.closeBeforeStop(this.annotatedClass, context::close);
		}

	}

}
