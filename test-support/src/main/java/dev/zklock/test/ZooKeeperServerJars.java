package dev.zklock.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The jars of ZooKeeper servers of other versions than the one the starter brings, one folder per
 * version, which the build copies from Maven Central: the folder that the system property
 * {@value #FOLDERS_PROPERTY} names holds a sub-folder per version ({@code 3.6.4}, ...) with that
 * version's {@code zookeeper} and {@code zookeeper-jute} jars and the dependencies its server needs.
 * Start an ensemble of such a version with {@link ZooKeeperEnsembleBuilder#serverJars(Path)}.
 */
public final class ZooKeeperServerJars {

	/**
	 * The system property that names the folder of version folders.
	 */
	public static final String FOLDERS_PROPERTY = "zklock.test.zookeeper-servers";

	private ZooKeeperServerJars() {
	}

	/**
	 * Return the folder of a version's jars.
	 * @param version the version, such as {@code 3.6.4}
	 * @return the folder
	 * @throws IllegalStateException if the property is not set or the folder holds no
	 * {@code zookeeper} jar of that version
	 */
	public static Path folder(String version) {
		String folders = System.getProperty(FOLDERS_PROPERTY);
		if (folders == null || folders.isBlank()) {
			throw new IllegalStateException("No folder of ZooKeeper server jars: the build sets the system property "
					+ FOLDERS_PROPERTY);
		}
		Path folder = Path.of(folders, version);
		if (!Files.isRegularFile(folder.resolve("zookeeper-" + version + ".jar"))) {
			throw new IllegalStateException("No jars of ZooKeeper " + version + " in " + folder.toAbsolutePath()
					+ ": the build copies them (maven-dependency-plugin, execution zookeeper-servers)");
		}
		return folder;
	}

	static String classpath(Path folder) {
		try (Stream<Path> files = Files.list(folder)) {
			String classpath = files.filter((file) -> file.getFileName().toString().endsWith(".jar"))
				.map((file) -> file.toAbsolutePath().toString())
				.sorted()
				.collect(Collectors.joining(File.pathSeparator));
			if (classpath.isEmpty()) {
				throw new IllegalArgumentException("No jar in " + folder.toAbsolutePath());
			}
			return classpath;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not list the jars in " + folder.toAbsolutePath(), ex);
		}
	}

}
