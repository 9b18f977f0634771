package dev.zklock.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension behind {@link EmbeddedZooKeeper}.
 * <p>
 * The server, and the Spring contexts that use it, are closed by a resource in the test class's
 * store, which JUnit closes after every other extension's after-all step, Spring's own included,
 * whatever order the annotations are declared in.
 */
public class EmbeddedZooKeeperExtension implements BeforeAllCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(EmbeddedZooKeeperExtension.class);

	@Override
	public void beforeAll(ExtensionContext context) {
		Class<?> annotated = EmbeddedZooKeeperServers.annotatedClass(context.getRequiredTestClass());
		if (annotated == context.getRequiredTestClass()) {
			EmbeddedZooKeeperServers.start(annotated);
			context.getStore(NAMESPACE)
				.put(annotated, (AutoCloseable) () -> EmbeddedZooKeeperServers.stop(annotated));
		}
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == ZooKeeperTestServer.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return EmbeddedZooKeeperServers.get(extensionContext.getRequiredTestClass());
	}

}
