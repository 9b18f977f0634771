package dev.zklock.systemtest.app;

import dev.zklock.LeadershipEvent;
import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;

import org.springframework.context.ApplicationListener;

/**
 * Logs every leadership grant and revocation of this process, with the term's epoch, at the
 * time the event is received.
 */
public class LeadershipHistory implements ApplicationListener<LeadershipEvent> {

	private final HistoryWriter history;

	private final String process;

	/**
	 * Create an instance.
	 * @param history where to log the events
	 * @param process the name of this process in the history
	 */
	public LeadershipHistory(HistoryWriter history, String process) {
		this.history = history;
		this.process = process;
	}

	@Override
	public void onApplicationEvent(LeadershipEvent event) {
		OpKind kind = (event instanceof LeadershipGrantedEvent) ? OpKind.LEADER_GRANTED : OpKind.LEADER_REVOKED;
		this.history.append(Operation.event(this.process, kind, event.getGroup(), System.currentTimeMillis(),
				event.getEpoch()));
	}

}
