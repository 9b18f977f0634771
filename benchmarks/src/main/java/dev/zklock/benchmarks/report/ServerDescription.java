package dev.zklock.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.zklock.test.ZooKeeperEnsemble;

/**
 * How the ZooKeeper servers of a setup run: the configuration and JVM options of the first
 * server (the others differ only in ids and ports), and where their data is.
 *
 * @param zooCfg the configuration file of server 1
 * @param jvmArgs the JVM options of server 1
 * @param dataFolder the folder of the servers' data
 * @param fileSystem the file system holding it
 */
public record ServerDescription(String zooCfg, String jvmArgs, String dataFolder, String fileSystem) {

	/**
	 * Describe running servers.
	 * @param servers the servers
	 * @return the description
	 */
	public static ServerDescription of(ZooKeeperEnsemble servers) {
		Path root = servers.dataRoot();
		return new ServerDescription(read(root.resolve("server-1").resolve("zoo.cfg")), jvmArgs(servers.pid(1)),
				root.toString(), fileSystem(root));
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8).trim();
		}
		catch (IOException ex) {
			return "(could not read " + file + ": " + ex.getMessage() + ")";
		}
	}

	/**
	 * Return the options between {@code java} and the classpath in a process's command line.
	 */
	private static String jvmArgs(long pid) {
		try {
			String[] command = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8)
				.split("\0");
			List<String> options = new ArrayList<>();
			for (int i = 1; i < command.length && !command[i].equals("-cp"); i++) {
				options.add(command[i]);
			}
			return String.join(" ", options);
		}
		catch (IOException | RuntimeException ex) {
			return "(unknown: " + ex.getMessage() + ")";
		}
	}

	private static String fileSystem(Path folder) {
		try {
			FileStore store = Files.getFileStore(folder);
			return store.type() + " (" + store.name() + ")";
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

}
