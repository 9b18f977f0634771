package dev.zklock.systemtest.shedlock;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.shedlock.ZkLockShedLockAutoConfiguration;
import dev.zklock.shedlock.ZkLockProvider;
import net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider;
import org.jspecify.annotations.Nullable;

/**
 * The two ways the {@link ReportApplication} is run: as a ShedLock user has it, and moved to
 * zklock. Each runs on this JVM's classpath without the other's provider: the application
 * before the move has no zklock (neither the starter nor the library) on its classpath, the one
 * after it no ShedLock ZooKeeper provider.
 */
enum LockProviderSetup {

	/**
	 * ShedLock's ZooKeeper provider, the application's own {@code LockProvider} bean.
	 */
	SHEDLOCK_ZOOKEEPER(ShedLockZooKeeperConfiguration.PROFILE, ZookeeperCuratorLockProvider.class,
			List.of(ZkLockTemplate.class, ZkLockShedLockAutoConfiguration.class)),

	/**
	 * zklock's starter and no {@code LockProvider} bean of the application's: the
	 * auto-configuration's {@code ZkLockProvider}.
	 */
	ZKLOCK(null, ZkLockProvider.class, List.of(ZookeeperCuratorLockProvider.class));

	private static final String STARTER = "zklock-spring-boot-starter";

	private final @Nullable String profile;

	private final Class<?> lockProvider;

	private final List<Class<?>> leftOut;

	LockProviderSetup(@Nullable String profile, Class<?> lockProvider, List<Class<?>> leftOut) {
		this.profile = profile;
		this.lockProvider = lockProvider;
		this.leftOut = leftOut;
	}

	/**
	 * Return the profile the application runs with, if any.
	 * @return the profile, or {@code null}
	 */
	@Nullable String profile() {
		return this.profile;
	}

	/**
	 * Return the class of the {@code LockProvider} the application should use.
	 * @return the class
	 */
	Class<?> lockProvider() {
		return this.lockProvider;
	}

	/**
	 * Return the classes the application's classpath must not hold.
	 * @return the classes
	 */
	List<Class<?>> leftOut() {
		return this.leftOut;
	}

	/**
	 * Return this JVM's classpath without the entries that hold the classes left out (and,
	 * before the move, without zklock's starter).
	 * @return the classpath, entries separated by {@link File#pathSeparator}
	 */
	String classpath() {
		Set<Path> leftOut = this.leftOut.stream().map(LockProviderSetup::location).collect(Collectors.toSet());
		boolean withoutStarter = this == SHEDLOCK_ZOOKEEPER;
		return entries().filter((entry) -> !leftOut.contains(entry))
			.filter((entry) -> !withoutStarter || !entry.getFileName().toString().startsWith(STARTER))
			.map(Path::toString)
			.collect(Collectors.joining(File.pathSeparator));
	}

	/**
	 * Return whether a class can be loaded from a classpath alone.
	 * @param classpath the classpath
	 * @param className the class's name
	 * @return whether it loads
	 */
	static boolean loads(String classpath, String className) {
		URL[] urls = Arrays.stream(classpath.split(File.pathSeparator)).map(LockProviderSetup::url).toArray(URL[]::new);
		try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
			Class.forName(className, false, loader);
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not close the class loader of " + classpath, ex);
		}
	}

	private static Stream<Path> entries() {
		return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !entry.isEmpty())
			.map((entry) -> Path.of(entry).toAbsolutePath().normalize());
	}

	private static Path location(Class<?> type) {
		CodeSource source = type.getProtectionDomain().getCodeSource();
		if (source == null || source.getLocation() == null) {
			throw new IllegalStateException("No location of " + type.getName());
		}
		try {
			return Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException("No location of " + type.getName(), ex);
		}
	}

	private static URL url(String entry) {
		try {
			return Path.of(entry).toUri().toURL();
		}
		catch (MalformedURLException ex) {
			throw new IllegalArgumentException("Not a classpath entry: " + entry, ex);
		}
	}

}
