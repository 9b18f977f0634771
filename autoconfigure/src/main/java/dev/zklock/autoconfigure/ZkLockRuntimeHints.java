package dev.zklock.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.actuate.ZkLockEndpoint;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a native image of an application using zklock must keep for reflection, beyond what Spring's
 * ahead-of-time processing finds by itself (the beans, their proxies, the configuration properties):
 * <ul>
 * <li>the classes the ZooKeeper client creates from a name: its connection socket
 * ({@code zookeeper.clientCnxnSocket}, NIO by default, Netty for TLS) through its
 * {@code (ZKClientConfig)} constructor, and the JAAS login module of a {@code zklock.sasl} login;</li>
 * <li>the classes the embedded ZooKeeper server creates from a name: its connection factory, its
 * metrics provider and the X.509 authentication provider of a TLS server;</li>
 * <li>the root object of a {@code @ZkLocked} key expression, whose getters SpEL calls
 * ({@code #root.methodName}, {@code #root.args});</li>
 * <li>the annotations, whose attributes are read when a bean is advised;</li>
 * <li>what the {@code zklock} actuator endpoint writes as JSON.</li>
 * </ul>
 * Registered in {@code META-INF/spring/aot.factories}. A ZooKeeper class that is not on the class path
 * (the server's, when only the client is there) is skipped.
 */
class ZkLockRuntimeHints implements RuntimeHintsRegistrar {

	private static final List<String> CLIENT_SOCKETS = List.of("org.apache.zookeeper.ClientCnxnSocketNIO",
			"org.apache.zookeeper.ClientCnxnSocketNetty");

	private static final List<String> SERVER_CONNECTION_FACTORIES = List.of(
			"org.apache.zookeeper.server.NIOServerCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");

	private static final List<String> CREATED_BY_NAME = List.of("org.apache.zookeeper.server.auth.DigestLoginModule",
			"org.apache.zookeeper.metrics.impl.DefaultMetricsProvider",
			"org.apache.zookeeper.server.auth.X509AuthenticationProvider");

	private static final List<String> CLIENT_CONFIG = List.of("org.apache.zookeeper.client.ZKClientConfig",
			"org.apache.zookeeper.common.ZKConfig");

	private static final String KEY_ROOT = "dev.zklock.lock.aop.LockKeyRoot";

	private static final List<String> ANNOTATIONS = List.of("dev.zklock.annotation.ZkLocked",
			"dev.zklock.annotation.ZkLeader", "dev.zklock.annotation.ZkLeaderComponent");

	private static final List<Class<?>> ENDPOINT_RESPONSES = List.of(ZkLockEndpoint.ZkLockDescriptor.class,
			ZkLockEndpoint.GroupDescriptor.class, ZkLockEndpoint.YieldDescriptor.class);

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		ReflectionHints reflection = hints.reflection();
		CLIENT_SOCKETS.forEach((name) -> reflection.registerTypeIfPresent(classLoader, name,
				MemberCategory.INVOKE_DECLARED_CONSTRUCTORS));
		CLIENT_CONFIG.forEach((name) -> reflection.registerTypeIfPresent(classLoader, name,
				MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS));
		SERVER_CONNECTION_FACTORIES.forEach((name) -> reflection.registerTypeIfPresent(classLoader, name,
				MemberCategory.INVOKE_DECLARED_CONSTRUCTORS));
		CREATED_BY_NAME.forEach((name) -> reflection.registerTypeIfPresent(classLoader, name,
				MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS));
		reflection.registerType(TypeReference.of(KEY_ROOT), MemberCategory.INVOKE_PUBLIC_METHODS);
		ANNOTATIONS.forEach((name) -> reflection.registerType(TypeReference.of(name),
				MemberCategory.INVOKE_PUBLIC_METHODS));
		BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();
		ENDPOINT_RESPONSES.forEach((type) -> bindings.registerReflectionHints(reflection, type));
	}

}
