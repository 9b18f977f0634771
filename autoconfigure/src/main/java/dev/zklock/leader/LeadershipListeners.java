package dev.zklock.leader;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Several {@link LeadershipListener listeners} told of each change in the order they were
 * added: the one that publishes events first, then those added later (leader-only components,
 * running terms).
 */
final class LeadershipListeners implements LeadershipListener {

	private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

	LeadershipListeners(LeadershipListener first) {
		this.listeners.add(first);
	}

	void add(LeadershipListener listener) {
		this.listeners.add(listener);
	}

	@Override
	public void granted(String group, long epoch) {
		this.listeners.forEach((listener) -> listener.granted(group, epoch));
	}

	@Override
	public void revoked(String group, long epoch, String reason) {
		this.listeners.forEach((listener) -> listener.revoked(group, epoch, reason));
	}

}
