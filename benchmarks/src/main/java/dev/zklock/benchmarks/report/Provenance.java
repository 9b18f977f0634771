package dev.zklock.benchmarks.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.openjdk.jmh.runner.Runner;

import org.springframework.boot.SpringBootVersion;
import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * What was measured: the commit of this working tree and the versions of the libraries, read
 * from the classpath rather than typed in.
 *
 * @param commit {@code git describe --always --dirty}, {@code -dirty} where the tree had
 * uncommitted changes
 * @param head the full hash of the commit
 * @param versions the version of each library, by name
 */
public record Provenance(String commit, String head, Map<String, String> versions) {

	/**
	 * Read the commit from git in the working folder, and the versions from the classpath.
	 * @return what was measured
	 */
	public static Provenance read() {
		Map<String, String> versions = new LinkedHashMap<>();
		versions.put("Spring Boot", String.valueOf(SpringBootVersion.getVersion()));
		versions.put("Curator", version(CuratorFramework.class, "org.apache.curator/curator-framework"));
		versions.put("ZooKeeper (client and servers)", version(ZooKeeper.class, "org.apache.zookeeper/zookeeper"));
		versions.put("Spring Integration",
				version(ZookeeperLockRegistry.class, "org.springframework.integration/spring-integration-zookeeper"));
		versions.put("ShedLock", version(net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider.class,
				"net.javacrumbs.shedlock/shedlock-provider-zookeeper-curator"));
		versions.put("JMH", version(Runner.class, "org.openjdk.jmh/jmh-core"));
		return new Provenance(git("describe", "--always", "--dirty"), git("rev-parse", "HEAD"), versions);
	}

	/**
	 * Return the version of the jar that holds a class: its manifest's, else its Maven
	 * {@code pom.properties}.
	 */
	static String version(Class<?> type, String groupAndArtifact) {
		String version = type.getPackage().getImplementationVersion();
		if (version != null) {
			return version;
		}
		String resource = "/META-INF/maven/" + groupAndArtifact + "/pom.properties";
		try (InputStream in = type.getResourceAsStream(resource)) {
			if (in != null) {
				Properties properties = new Properties();
				properties.load(in);
				return properties.getProperty("version", "unknown");
			}
		}
		catch (IOException ex) {
			// unknown below
		}
		return "unknown";
	}

	private static String git(String... args) {
		String[] command = new String[args.length + 1];
		command[0] = "git";
		System.arraycopy(args, 0, command, 1, args.length);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return "unknown (git did not answer)";
			}
			return (process.exitValue() == 0) ? output : "unknown (" + output + ")";
		}
		catch (IOException ex) {
			return "unknown (" + ex.getMessage() + ")";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "unknown (interrupted)";
		}
	}

}
