package dev.zklock.leader;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.zklock.LeadershipEvent;
import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.LeadershipRevokedEvent;
import dev.zklock.ZkLeadership;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Publishes leadership changes as application events, one at a time and in order, on a thread
 * of its own, so that listeners never run under an election's lock and a listener that throws
 * cannot affect the leadership.
 */
final class LeadershipEvents implements LeadershipListener {

	private static final Log logger = LogFactory.getLog(LeadershipEvents.class);

	private final ZkLeadership source;

	private final String participantId;

	private final ApplicationEventPublisher publisher;

	private final ExecutorService executor;

	LeadershipEvents(ZkLeadership source, String participantId, ApplicationEventPublisher publisher) {
		this.source = source;
		this.participantId = participantId;
		this.publisher = publisher;
		CustomizableThreadFactory threads = new CustomizableThreadFactory("zklock-leader-events-");
		threads.setDaemon(true);
		this.executor = Executors.newSingleThreadExecutor(threads);
	}

	@Override
	public void granted(String group, long epoch) {
		dispatch(new LeadershipGrantedEvent(this.source, group, this.participantId, epoch));
	}

	@Override
	public void revoked(String group, long epoch, String reason) {
		dispatch(new LeadershipRevokedEvent(this.source, group, this.participantId, epoch));
	}

	/**
	 * Wait until the events dispatched so far have been published.
	 */
	void drain(Duration timeout) {
		try {
			this.executor.submit(() -> { }).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RejectedExecutionException | ExecutionException | TimeoutException ex) {
			logger.warn("Leadership events were still being published after " + timeout.toMillis() + "ms");
		}
	}

	void close() {
		this.executor.shutdownNow();
	}

	private void dispatch(LeadershipEvent event) {
		try {
			this.executor.execute(() -> publish(event));
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Not publishing " + event + ": the application is closed");
		}
	}

	private void publish(LeadershipEvent event) {
		try {
			this.publisher.publishEvent(event);
		}
		catch (Throwable ex) {
			logger.error("A listener of " + event + " failed; the leadership is not affected", ex);
		}
	}

}
