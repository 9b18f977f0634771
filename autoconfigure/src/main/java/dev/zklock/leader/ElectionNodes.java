package dev.zklock.leader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;
import dev.zklock.zookeeper.ZooKeeperPort.NodeStat;

/**
 * The ZooKeeper nodes of one group's election: one ephemeral sequential child per participant
 * under the group's node, holding the participant id, named {@code _c_<id>-n-<sequence>} with
 * the protected id of the create that made it; the lowest sequence number leads. Also the
 * blocking reads of the election that {@code ZkLeadership}'s queries make.
 */
final class ElectionNodes {

	private static final String PROTECTED_PREFIX = "_c_";

	private static final String NODE_PREFIX = "n-";

	private static final int SEQUENCE_LENGTH = 10;

	private final ZooKeeperPort port;

	private final String groupPath;

	private final Duration readTimeout;

	ElectionNodes(ZooKeeperPort port, String groupPath, Duration readTimeout) {
		this.port = port;
		this.groupPath = groupPath;
		this.readTimeout = readTimeout;
	}

	String groupPath() {
		return this.groupPath;
	}

	ZooKeeperPort port() {
		return this.port;
	}

	/**
	 * Return the path to create a node at, without its sequence: its name carries the create's
	 * protected id, by which a node whose create's outcome is unknown is found again.
	 */
	String nodePath(String protectedId) {
		return path(this.groupPath, protectedPrefix(protectedId) + NODE_PREFIX);
	}

	static String protectedPrefix(String protectedId) {
		return PROTECTED_PREFIX + protectedId + "-";
	}

	/**
	 * Return the names of the participants' nodes among a group's children, in election order.
	 */
	static List<String> inElectionOrder(List<String> children) {
		List<String> nodes = new ArrayList<>(children);
		nodes.removeIf((child) -> !isElectionNode(child));
		nodes.sort(Comparator.comparingLong(ElectionNodes::sequence));
		return nodes;
	}

	/**
	 * Return whether a node was named past the end of the group node's sequence counter
	 * (ZooKeeper names every create from there {@code 2147483647}, or a negative number), and so
	 * would not be in election order.
	 */
	static boolean isPastEnd(String name) {
		String sequence = name.substring(name.lastIndexOf(NODE_PREFIX) + NODE_PREFIX.length());
		return sequence.length() != SEQUENCE_LENGTH || !sequence.chars().allMatch(Character::isDigit)
				|| sequence.equals(Integer.toString(Integer.MAX_VALUE));
	}

	String path(String name) {
		return path(this.groupPath, name);
	}

	static String path(String parent, String name) {
		return parent.endsWith("/") ? parent + name : parent + "/" + name;
	}

	static String name(String path) {
		return path.substring(path.lastIndexOf('/') + 1);
	}

	/**
	 * Return the participant ids, in election order, read from ZooKeeper.
	 */
	List<String> participantIds(int limit) throws Exception {
		List<String> ids = new ArrayList<>();
		for (String name : children()) {
			if (ids.size() == limit) {
				break;
			}
			byte[] data = this.<byte[]>read((reply) -> this.port.getData(path(name), reply));
			if (data != null) {
				ids.add(new String(data, StandardCharsets.UTF_8));
			}
		}
		return ids;
	}

	/**
	 * Return the creation zxid of the leader's node, read from ZooKeeper.
	 */
	OptionalLong leaderCzxid() throws Exception {
		for (String name : children()) {
			NodeStat stat = this.<NodeStat>read((reply) -> this.port.exists(path(name), null, reply));
			if (stat != null) {
				return OptionalLong.of(stat.czxid());
			}
		}
		return OptionalLong.empty();
	}

	private List<String> children() throws Exception {
		ZooKeeperPort.Children children = this.<ZooKeeperPort.Children>read(
				(reply) -> this.port.getChildren(this.groupPath, null, reply));
		return (children != null) ? inElectionOrder(children.names()) : List.of();
	}

	/**
	 * Make a request and wait for its reply.
	 * @return the value, or {@code null} if the node is gone
	 */
	private <T> @Nullable T read(Request<T> request) throws Exception {
		CompletableFuture<@Nullable T> answer = new CompletableFuture<>();
		request.send((code, value) -> {
			if (code == Code.OK) {
				answer.complete(value);
			}
			else if (code == Code.NONODE) {
				answer.complete(null);
			}
			else {
				answer.completeExceptionally(KeeperException.create(code));
			}
		});
		try {
			return answer.get(this.readTimeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		catch (TimeoutException ex) {
			throw new TimeoutException("No answer from ZooKeeper (" + this.port.connectString() + ") within "
					+ this.readTimeout.toMillis() + "ms");
		}
	}

	private static boolean isElectionNode(String name) {
		int start = name.length() - SEQUENCE_LENGTH;
		return start >= NODE_PREFIX.length() && name.startsWith(NODE_PREFIX, start - NODE_PREFIX.length())
				&& name.substring(start).chars().allMatch(Character::isDigit);
	}

	private static long sequence(String name) {
		return Long.parseLong(name.substring(name.length() - SEQUENCE_LENGTH));
	}

	@FunctionalInterface
	private interface Request<T> {

		void send(ZooKeeperPort.Reply<T> reply);

	}

}
