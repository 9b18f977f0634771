package dev.zklock.leader;

import org.apache.zookeeper.common.PathUtils;

/**
 * Checks that a group name can be the name of one ZooKeeper node.
 */
final class GroupNames {

	private GroupNames() {
	}

	/**
	 * Return the group name, or throw an {@link IllegalArgumentException} saying why it cannot
	 * be used.
	 */
	static String validate(String group) {
		if (group.isBlank()) {
			throw new IllegalArgumentException("the group name is empty");
		}
		if (group.indexOf('/') >= 0) {
			throw new IllegalArgumentException("the group name '" + group + "' contains '/'; a group is one "
					+ "ZooKeeper node under zklock.leader.base-path");
		}
		try {
			PathUtils.validatePath("/" + group);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("the group name '" + group + "' is not a valid ZooKeeper node name: "
					+ ex.getMessage(), ex);
		}
		return group;
	}

}
