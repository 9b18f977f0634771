package dev.zklock.benchmarks.workload;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zklock.benchmarks.library.CuratorClients;

/**
 * The ZooKeeper servers the benchmarks run against, started by the run and named to the
 * benchmark JVMs in a system property.
 */
public final class ZooKeeperTarget {

	/** The system property holding the connect string. */
	public static final String CONNECT_STRING_PROPERTY = "zklock-benchmarks.connect-string";

	/** The system property holding the JVM options of the processes a benchmark starts. */
	public static final String CHILD_JVM_ARGS_PROPERTY = "zklock-benchmarks.child-jvm-args";

	/** The system property naming the file where workload 4 appends the grants of its two JVMs. */
	public static final String GRANTS_FILE_PROPERTY = "zklock-benchmarks.grants-file";

	/** Nothing to do inside a lock: the benchmarks measure the lock itself. */
	static final Runnable NO_WORK = () -> {
	};

	private ZooKeeperTarget() {
	}

	/**
	 * Return the connect string of the servers.
	 * @return the connect string
	 * @throws IllegalStateException if the run did not name any
	 */
	public static String connectString() {
		String connectString = System.getProperty(CONNECT_STRING_PROPERTY);
		if (connectString == null || connectString.isBlank()) {
			throw new IllegalStateException("No ZooKeeper to benchmark against: run the benchmarks with "
					+ "scripts/run-benchmarks.sh, or set -D" + CONNECT_STRING_PROPERTY + "=host:port");
		}
		return connectString;
	}

	/**
	 * Return the JVM options of the processes a benchmark starts.
	 * @return the options
	 */
	static String[] childJvmArgs() {
		String args = System.getProperty(CHILD_JVM_ARGS_PROPERTY, "-Xmx512m").trim();
		return args.isEmpty() ? new String[0] : args.split("\\s+");
	}

	/**
	 * Start a client of the servers, with its own session.
	 * @return the connected client
	 */
	static CuratorFramework connect() {
		return CuratorClients.connect(connectString());
	}

	/**
	 * Close what a benchmark opened, in order, even when one of them fails.
	 * @param resources the resources, {@code null} for those never opened
	 */
	static void closeAll(@Nullable AutoCloseable... resources) {
		RuntimeException failure = null;
		for (AutoCloseable resource : resources) {
			if (resource == null) {
				continue;
			}
			try {
				resource.close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = new IllegalStateException("Could not close " + resource, ex);
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}
