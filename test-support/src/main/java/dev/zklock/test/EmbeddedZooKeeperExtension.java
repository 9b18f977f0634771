package dev.zklock.test;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension behind {@link EmbeddedZooKeeper}.
 */
public class EmbeddedZooKeeperExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

	@Override
	public void beforeAll(ExtensionContext context) {
		Class<?> annotated = EmbeddedZooKeeperServers.annotatedClass(context.getRequiredTestClass());
		if (annotated == context.getRequiredTestClass()) {
			EmbeddedZooKeeperServers.start(annotated);
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		Class<?> annotated = EmbeddedZooKeeperServers.annotatedClass(context.getRequiredTestClass());
		if (annotated == context.getRequiredTestClass()) {
			EmbeddedZooKeeperServers.stop(annotated);
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
