package dev.zklock.systemtest.app;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.zklock.LockLostException;
import dev.zklock.LockTimeoutException;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Outcome;
import dev.zklock.systemtest.register.FenceRejectedException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * The threads that loop over the locked operations while the application runs: some increment
 * the {@value #COUNTER} register (several threads of a process hand its lock to one another),
 * others mix shared reads and exclusive increments of the {@value #MIX} register, and one may
 * increment the {@value #KEPT} register with a pause between increments. Every operation goes to
 * the history with its outcome.
 */
class LockWorkers implements SmartLifecycle {

	static final String COUNTER = "counter";

	static final String MIX = "mix";

	static final String KEPT = "kept";

	private static final Log logger = LogFactory.getLog(LockWorkers.class);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private static final long BACK_OFF_MILLIS = 50;

	private final RegisterWork work;

	private final HistoryWriter history;

	private final WorkloadProperties properties;

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean running;

	LockWorkers(RegisterWork work, HistoryWriter history, WorkloadProperties properties) {
		this.work = work;
		this.history = history;
		this.properties = properties;
	}

	@Override
	public synchronized void start() {
		this.running = true;
		for (int i = 1; i <= this.properties.getCounterThreads(); i++) {
			this.threads.add(thread("counter-worker-" + i, () -> operate(OpKind.EXCLUSIVE_INCREMENT, COUNTER)));
		}
		Duration keptKeyPause = this.properties.getKeptKeyPause();
		if (keptKeyPause != null) {
			this.threads.add(thread("kept-worker", () -> {
				operate(OpKind.EXCLUSIVE_INCREMENT, KEPT);
				sleep(keptKeyPause.toMillis());
			}));
		}
		for (int i = 1; i <= this.properties.getMixThreads(); i++) {
			this.threads.add(thread("mix-worker-" + i, () -> operate(mixKind(), MIX)));
		}
		this.threads.forEach(Thread::start);
	}

	@Override
	public synchronized void stop() {
		this.running = false;
		long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
		for (Thread thread : this.threads) {
			try {
				thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		this.threads.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	private Thread thread(String name, Runnable operation) {
		Thread thread = new Thread(() -> {
			while (this.running) {
				operation.run();
			}
		}, name);
		thread.setDaemon(true);
		return thread;
	}

	private OpKind mixKind() {
		return (ThreadLocalRandom.current().nextDouble() < this.properties.getMixExclusiveShare())
				? OpKind.EXCLUSIVE_INCREMENT : OpKind.SHARED_READ;
	}

	private void operate(OpKind kind, String key) {
		Attempt attempt = new Attempt();
		Outcome outcome;
		String detail = null;
		try {
			if (kind == OpKind.EXCLUSIVE_INCREMENT) {
				this.work.increment(key, attempt);
			}
			else {
				this.work.read(key, attempt);
			}
			outcome = Outcome.OK;
		}
		catch (FenceRejectedException ex) {
			outcome = Outcome.FENCED;
			detail = ex.getMessage();
		}
		catch (LockLostException ex) {
			outcome = Outcome.LOCK_LOST;
			detail = ex.getMessage();
		}
		catch (LockTimeoutException ex) {
			outcome = Outcome.TIMEOUT;
		}
		catch (RuntimeException ex) {
			outcome = Outcome.ERROR;
			detail = ex.toString();
		}
		this.history.append(attempt.toOperation(this.properties.getProcess(), kind, key, outcome, detail));
		if (outcome == Outcome.ERROR) {
			logger.debug("Operation on '" + key + "' failed: " + detail);
			backOff();
		}
	}

	private void backOff() {
		sleep(BACK_OFF_MILLIS);
	}

	private void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

}
