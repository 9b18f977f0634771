package dev.zklock.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

import dev.zklock.lock.LockKeys;

/**
 * A forced release as the releasing instance records it for the owner, in a node under the
 * owner's control node ({@code <zklock.lock.base-path>/#instances/<participant>}): the owner's
 * session, who released, and the released lock nodes' paths, one {@code name=value} line each.
 *
 * @param session the owner's session the nodes belong to
 * @param by the participant id of the releasing instance
 * @param nodes the released nodes' full paths
 */
record ReleaseNotice(long session, String by, List<String> nodes) {

	/**
	 * The node under the lock base path that holds every instance's control node: no encoded key
	 * begins with {@code #}.
	 */
	static final String INSTANCES = ClusterView.RESERVED + "instances";

	/**
	 * The name prefix of an instance's session node in its control node.
	 */
	static final String SESSION = "session-";

	/**
	 * The name prefix of a notice in an instance's control node.
	 */
	static final String NOTICE = "release-";

	static String controlPath(String lockBasePath, String participant) {
		return ZKPaths.makePath(lockBasePath, INSTANCES, LockKeys.encode(participant));
	}

	byte[] toBytes() {
		StringBuilder text = new StringBuilder().append("session=").append(Long.toHexString(this.session))
			.append("\nby=").append(this.by.replace('\n', ' '));
		this.nodes.forEach((node) -> text.append("\nnode=").append(node));
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

	static @Nullable ReleaseNotice parse(byte[] data) {
		long session = 0;
		String by = "";
		List<String> nodes = new ArrayList<>();
		for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
			if (line.startsWith("session=")) {
				try {
					session = Long.parseUnsignedLong(line.substring(8), 16);
				}
				catch (NumberFormatException ex) {
					return null;
				}
			}
			else if (line.startsWith("by=")) {
				by = line.substring(3);
			}
			else if (line.startsWith("node=")) {
				nodes.add(line.substring(5));
			}
		}
		return (session != 0) ? new ReleaseNotice(session, by, nodes) : null;
	}

}
