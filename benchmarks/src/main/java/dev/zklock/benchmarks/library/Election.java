package dev.zklock.benchmarks.library;

import java.util.Arrays;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.utils.ZKPaths;

/**
 * A leader election library under test, named in arguments by {@link #id()}.
 */
public enum Election {

	/** Curator's {@code LeaderLatch} used directly: the baseline. */
	CURATOR("curator", "Curator LeaderLatch", "new LeaderLatch(client, path) with a listener, start(); "
			+ "close() in a shutdown hook");

	private static final String BASE_PATH = "/benchmarks/leaders/";

	private final String id;

	private final String label;

	private final String usage;

	Election(String id, String label, String usage) {
		this.id = id;
		this.label = label;
		this.usage = usage;
	}

	/**
	 * Return the election library with the given id.
	 * @param id the id
	 * @return the library
	 */
	public static Election of(String id) {
		return Arrays.stream(values())
			.filter((election) -> election.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No election library '" + id + "'"));
	}

	/**
	 * Return the name used in arguments.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the name shown in the report.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Return how the benchmark uses the library, for the report.
	 * @return the calls
	 */
	public String usage() {
		return this.usage;
	}

	/**
	 * Return the node under which the participants of a group have their nodes.
	 * @param group the group
	 * @return the path
	 */
	public String path(String group) {
		return ZKPaths.makePath(BASE_PATH + this.id, group);
	}

	/**
	 * Take part in a group's election.
	 * @param client the client
	 * @param group the group
	 * @param onLeader called when this participant becomes the leader
	 * @return what leaves the election when closed
	 * @throws Exception when the library fails
	 */
	public AutoCloseable join(CuratorFramework client, String group, Runnable onLeader) throws Exception {
		LeaderLatch latch = new LeaderLatch(client, path(group));
		latch.addListener(new LeaderLatchListener() {

			@Override
			public void isLeader() {
				onLeader.run();
			}

			@Override
			public void notLeader() {
			}

		});
		latch.start();
		return latch;
	}

}
