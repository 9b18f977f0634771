package dev.zklock.systemtest.shedlock;

import java.time.Duration;

import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The application's job: every second, on one instance only, a run that takes the configured
 * job time. Each run logs a {@code scheduled-run} record with the detail {@value #STARTED} when
 * it starts, once ShedLock has taken its lock, and one with the detail {@value #ENDED} and both
 * times when it ends: a run cut short by a kill has only the first.
 */
@Component
public class ReportJob {

	/**
	 * The job's cron expression: every second.
	 */
	public static final String CRON = "* * * * * *";

	/**
	 * The name of the job's lock.
	 */
	public static final String LOCK = "report";

	/**
	 * How long the lock is kept at least: less than the time between two ticks, more than the
	 * instances' clocks and schedulers differ.
	 */
	public static final String LOCK_AT_LEAST_FOR = "500ms";

	/**
	 * How long the lock is kept at most (the application's default for its jobs).
	 */
	public static final String LOCK_AT_MOST_FOR = "10s";

	/**
	 * The detail of the record a run logs when it starts.
	 */
	public static final String STARTED = "started";

	/**
	 * The detail of the record a run logs when it ends.
	 */
	public static final String ENDED = "ended";

	private final HistoryWriter history;

	private final String process;

	private final Duration jobTime;

	ReportJob(HistoryWriter history, ReportProperties properties) {
		this.history = history;
		this.process = properties.getProcess();
		this.jobTime = properties.getJobTime();
	}

	@Scheduled(cron = CRON)
	@SchedulerLock(name = LOCK, lockAtLeastFor = LOCK_AT_LEAST_FOR)
	public void report() throws InterruptedException {
		long start = System.currentTimeMillis();
		this.history.append(Operation.of(this.process, OpKind.SCHEDULED_RUN, LOCK, start, start, null, Outcome.OK)
			.withDetail(STARTED));
		Thread.sleep(this.jobTime.toMillis());
		this.history.append(Operation.of(this.process, OpKind.SCHEDULED_RUN, LOCK, start, System.currentTimeMillis(),
				null, Outcome.OK)
			.withDetail(ENDED));
	}

}
