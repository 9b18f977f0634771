package dev.zklock.leader;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The elections of this instance by group: each created when its group is first joined, and
 * looked up with an error that says how to take part in a group.
 */
final class GroupElections {

	private final Map<String, GroupElection> elections = new ConcurrentHashMap<>();

	private final Function<String, GroupElection> factory;

	GroupElections(Function<String, GroupElection> factory) {
		this.factory = factory;
	}

	/**
	 * Return the election of the group, created if this is its first join.
	 */
	GroupElection join(String group) {
		return this.elections.computeIfAbsent(group, this.factory);
	}

	/**
	 * Return the election of the group.
	 * @throws IllegalArgumentException if this instance takes no part in it
	 */
	GroupElection get(String group) {
		GroupElection election = this.elections.get(group);
		if (election == null) {
			throw new IllegalArgumentException("This instance takes no part in the election of group '" + group
					+ "'; it takes part in " + groups() + ". Name the group in a @ZkLeader annotation or in "
					+ "zklock.leader.groups");
		}
		return election;
	}

	Set<String> groups() {
		return Collections.unmodifiableSet(new TreeSet<>(this.elections.keySet()));
	}

	Collection<GroupElection> all() {
		return this.elections.values();
	}

}
