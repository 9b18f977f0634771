package dev.zklock.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.data.Stat;

import dev.zklock.lock.NodeOwner;

/**
 * Reads the election groups under the leader base path for {@link ClusterView}: the base path's
 * and each group's children through {@link BoundedChildren}, and one {@code getData} per
 * participant.
 */
final class Elections {

	private final CuratorFramework client;

	private final BoundedChildren children;

	private final String basePath;

	Elections(CuratorFramework client, BoundedChildren children, String basePath) {
		this.client = client;
		this.children = children;
		this.basePath = basePath;
	}

	/**
	 * Return every group, in name order, at most {@link ClusterView#MAX_KEYS}.
	 */
	List<ElectionGroupView> groups() {
		List<String> groups = new ArrayList<>(this.children.read(this.basePath, this.children.count(this.basePath),
				ClusterView.KEY_NAME_ALLOWANCE));
		groups.sort(Comparator.naturalOrder());
		List<ElectionGroupView> views = new ArrayList<>();
		for (String group : groups) {
			if (views.size() == ClusterView.MAX_KEYS) {
				break;
			}
			views.add(group(ZKPaths.makePath(this.basePath, group), group));
		}
		return views;
	}

	private ElectionGroupView group(String groupPath, String group) {
		List<String> nodes = new ArrayList<>(this.children.read(groupPath, this.children.count(groupPath),
				ClusterView.NODE_NAME_ALLOWANCE));
		nodes.removeIf((name) -> !isElectionNode(name));
		nodes.sort(Comparator.comparing((String name) -> name.substring(name.length() - 10)));
		List<String> participants = new ArrayList<>();
		long epoch = -1;
		for (String name : nodes) {
			Stat stat = new Stat();
			byte[] data = ClusterView.data(this.client, ZKPaths.makePath(groupPath, name), stat);
			if (data == null) {
				continue;
			}
			if (participants.isEmpty()) {
				epoch = stat.getCzxid();
			}
			NodeOwner owner = NodeOwner.parse(data);
			participants.add((owner != null) ? owner.participant() : new String(data, StandardCharsets.UTF_8));
			if (participants.size() == ClusterView.MAX_NODES) {
				break;
			}
		}
		return new ElectionGroupView(group, participants, participants.isEmpty() ? null : participants.get(0), epoch);
	}

	private static boolean isElectionNode(String name) {
		return name.length() > 12 && name.substring(name.length() - 10).chars().allMatch(Character::isDigit)
				&& name.startsWith("n-", name.length() - 12);
	}

}
