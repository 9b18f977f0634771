package dev.zklock.autoconfigure;

import java.lang.reflect.Method;
import java.util.List;

import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLeaderComponent;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.actuate.ZkLockEndpoint;
import dev.zklock.lock.HeldLockInfo;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints that Spring's ahead-of-time processing gets from {@code META-INF/spring/aot.factories},
 * checked as a native image would use them.
 */
class ZkLockRuntimeHintsTests {

	private final RuntimeHints hints = registeredHints();

	private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	@Test
	void theClientsConnectionSocketsCanBeCreatedFromTheirNames() throws Exception {
		for (String name : List.of("org.apache.zookeeper.ClientCnxnSocketNIO",
				"org.apache.zookeeper.ClientCnxnSocketNetty")) {
			assertThat(this.reflection.onConstructorInvocation(
					Class.forName(name).getDeclaredConstructor(ZKClientConfig.class)))
				.as(name)
				.accepts(this.hints);
		}
		assertThat(this.reflection.onType(ZKClientConfig.class)).accepts(this.hints);
	}

	@Test
	void theLoginModuleAndTheEmbeddedServersPartsCanBeCreatedFromTheirNames() throws Exception {
		for (String name : List.of("org.apache.zookeeper.server.NIOServerCnxnFactory",
				"org.apache.zookeeper.server.NettyServerCnxnFactory")) {
			assertThat(this.reflection.onConstructorInvocation(Class.forName(name).getDeclaredConstructor()))
				.as(name)
				.accepts(this.hints);
		}
		for (String name : List.of("org.apache.zookeeper.server.auth.DigestLoginModule",
				"org.apache.zookeeper.metrics.impl.DefaultMetricsProvider",
				"org.apache.zookeeper.server.auth.X509AuthenticationProvider")) {
			assertThat(this.reflection.onConstructorInvocation(Class.forName(name).getConstructor()))
				.as(name)
				.accepts(this.hints);
		}
	}

	@Test
	void keyExpressionsCanCallTheGettersOfTheirRootObject() throws Exception {
		Class<?> root = Class.forName("dev.zklock.lock.aop.LockKeyRoot");
		for (String getter : List.of("getMethod", "getMethodName", "getTarget", "getTargetClass", "getArgs")) {
			Method method = root.getMethod(getter);
			assertThat(this.reflection.onMethodInvocation(method)).as(getter).accepts(this.hints);
		}
	}

	@Test
	void theAnnotationsAttributesCanBeRead() throws Exception {
		assertThat(this.reflection.onMethodInvocation(ZkLocked.class.getMethod("key"))).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ZkLeader.class.getMethod("value"))).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ZkLeaderComponent.class.getMethod("group"))).accepts(this.hints);
	}

	@Test
	void theEndpointsResponsesCanBeWrittenAsJson() throws Exception {
		assertThat(this.reflection.onMethodInvocation(ZkLockEndpoint.ZkLockDescriptor.class.getMethod("connection")))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ZkLockEndpoint.GroupDescriptor.class.getMethod("leader")))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ZkLockEndpoint.YieldDescriptor.class.getMethod("yielded")))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(HeldLockInfo.class.getMethod("fencingToken")))
			.accepts(this.hints);
	}

	private static RuntimeHints registeredHints() {
		RuntimeHints hints = new RuntimeHints();
		List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader
			.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class);
		List<RuntimeHintsRegistrar> ours = registrars.stream()
			.filter(ZkLockRuntimeHints.class::isInstance)
			.toList();
		assertThat(ours).hasSize(1);
		ours.get(0).registerHints(hints, ZkLockRuntimeHintsTests.class.getClassLoader());
		return hints;
	}

}
