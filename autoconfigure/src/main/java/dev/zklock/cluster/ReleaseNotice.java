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
 * The owner answers in the same node: a {@code confirmed=} line (how many of the nodes it held)
 * once none of the nodes can be granted again and their holders lost them, or a
 * {@code refused=} line saying why it could not apply the notice.
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

	private static final String CONFIRMED = "confirmed=";

	private static final String REFUSED = "refused=";

	/**
	 * Return the control node of a participant: named by the participant id as lock nodes'
	 * data name it (on one line), so that the instance and those that read its nodes agree.
	 */
	static String controlPath(String lockBasePath, String participant) {
		return ZKPaths.makePath(lockBasePath, INSTANCES, LockKeys.encode(oneLine(participant)));
	}

	private static String oneLine(String value) {
		return value.replace('\n', ' ').replace('\r', ' ');
	}

	/**
	 * Return the notice's data with the owner's confirmation.
	 */
	byte[] confirmed(int held) {
		return append(toBytes(), CONFIRMED + held);
	}

	/**
	 * Return a notice's data with the owner's refusal.
	 */
	static byte[] refused(byte[] data, String why) {
		return append(data, REFUSED + oneLine(why));
	}

	/**
	 * Return the owner's answer in a notice's data: {@code confirmed=<n>} or {@code refused=<why>},
	 * {@code null} while it has not answered.
	 */
	static @Nullable String answer(byte[] data) {
		for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
			if (line.startsWith(CONFIRMED) || line.startsWith(REFUSED)) {
				return line;
			}
		}
		return null;
	}

	static boolean isConfirmation(String answer) {
		return answer.startsWith(CONFIRMED);
	}

	private static byte[] append(byte[] data, String line) {
		return (new String(data, StandardCharsets.UTF_8) + "\n" + line).getBytes(StandardCharsets.UTF_8);
	}

	byte[] toBytes() {
		StringBuilder text = new StringBuilder().append("session=").append(Long.toHexString(this.session))
			.append("\nby=").append(oneLine(this.by));
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
