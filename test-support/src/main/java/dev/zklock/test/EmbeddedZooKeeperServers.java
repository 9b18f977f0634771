package dev.zklock.test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * The servers started for {@link EmbeddedZooKeeper} test classes, and what must be closed
 * before each one stops.
 */
final class EmbeddedZooKeeperServers {

	private static final Map<Class<?>, Entry> servers = new ConcurrentHashMap<>();

	private EmbeddedZooKeeperServers() {
	}

	/**
	 * Return the class that carries {@link EmbeddedZooKeeper} for the given test class: the
	 * class itself, a superclass, or for a nested test class an enclosing class.
	 */
	static Class<?> annotatedClass(Class<?> testClass) {
		for (Class<?> candidate = testClass; candidate != null; candidate = candidate.getEnclosingClass()) {
			Class<?> carrier = carrier(candidate);
			if (carrier != null) {
				return candidate;
			}
		}
		throw new IllegalStateException(testClass.getName() + " is not annotated with @EmbeddedZooKeeper");
	}

	static boolean isAnnotated(Class<?> testClass) {
		for (Class<?> candidate = testClass; candidate != null; candidate = candidate.getEnclosingClass()) {
			if (carrier(candidate) != null) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable Class<?> carrier(Class<?> type) {
		return type.isAnnotationPresent(EmbeddedZooKeeper.class) ? type : null;
	}

	static ZooKeeperTestServer start(Class<?> annotatedClass) {
		return servers.computeIfAbsent(annotatedClass, (type) -> {
			int tickTime = type.getAnnotation(EmbeddedZooKeeper.class).tickTime();
			return new Entry(ZooKeeperTestServer.start(tickTime));
		}).server;
	}

	static ZooKeeperTestServer get(Class<?> testClass) {
		return start(annotatedClass(testClass));
	}

	/**
	 * Register something to close before the server of the given test class stops.
	 */
	static void closeBeforeStop(Class<?> testClass, AutoCloseable closeable) {
		servers.get(annotatedClass(testClass)).beforeStop.add(closeable);
	}

	static void stop(Class<?> annotatedClass) {
		Entry entry = servers.remove(annotatedClass);
		if (entry == null) {
			return;
		}
		for (AutoCloseable closeable : entry.beforeStop) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// Closing is best effort: the server must stop in any case.
			}
		}
		entry.server.close();
	}

	private record Entry(ZooKeeperTestServer server, List<AutoCloseable> beforeStop) {

		Entry(ZooKeeperTestServer server) {
			this(server, new CopyOnWriteArrayList<>());
		}

	}

}
