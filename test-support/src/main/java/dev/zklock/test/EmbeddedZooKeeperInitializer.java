package dev.zklock.test;

import java.util.Map;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Points an application context at the server of an {@link EmbeddedZooKeeper} test class by
 * setting {@code zklock.connect-string}, so that a test class can declare one
 * {@code ApplicationContextRunner} as a field and vary it per test:
 * <pre class="code">
 * private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
 *     .withInitializer(EmbeddedZooKeeperInitializer.of(MyTests.class))
 *     .withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class));
 * </pre>
 * The server is looked up when a context starts, after the test class's server has started. The
 * property has the lowest precedence: a test that sets {@code zklock.connect-string} wins.
 */
public final class EmbeddedZooKeeperInitializer
		implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	private final Class<?> testClass;

	private EmbeddedZooKeeperInitializer(Class<?> testClass) {
		this.testClass = testClass;
	}

	/**
	 * Create an initializer for the server of a test class.
	 * @param testClass the test class, annotated with {@link EmbeddedZooKeeper} or nested in one
	 * @return the initializer
	 * @throws IllegalStateException if the class is not annotated
	 */
	public static EmbeddedZooKeeperInitializer of(Class<?> testClass) {
		EmbeddedZooKeeperServers.annotatedClass(testClass); // Fails unless annotated.
		return new EmbeddedZooKeeperInitializer(testClass);
	}

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		String connectString = EmbeddedZooKeeperServers.get(this.testClass).getConnectString();
		context.getEnvironment()
			.getPropertySources()
			.addLast(new MapPropertySource("embeddedZooKeeper", Map.of("zklock.connect-string", connectString)));
	}

}
