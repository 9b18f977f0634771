package dev.zklock.leader;

import dev.zklock.ZkLockException;

/**
 * Reads of an election from ZooKeeper for the {@code ZkLeadership} queries, their checked
 * failures turned into a {@link ZkLockException} that names the group.
 */
final class ElectionReads {

	private ElectionReads() {
	}

	static <T> T read(String group, ZooKeeperRead<T> read) {
		try {
			return read.run();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ZkLockException("Interrupted while reading the election of group '" + group + "'", ex);
		}
		catch (Exception ex) {
			throw new ZkLockException("Could not read the election of group '" + group + "' from ZooKeeper", ex);
		}
	}

	@FunctionalInterface
	interface ZooKeeperRead<T> {

		T run() throws Exception;

	}

}
