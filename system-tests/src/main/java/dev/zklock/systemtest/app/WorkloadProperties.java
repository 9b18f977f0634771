package dev.zklock.systemtest.app;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the workload application, set by the system test that starts it.
 */
@ConfigurationProperties("systemtest")
public class WorkloadProperties {

	/**
	 * Name of this process in the history, stable across restarts.
	 */
	private String process = "app";

	/**
	 * File this process appends its operations to.
	 */
	private Path history = Path.of("history.jsonl");

	/**
	 * Address of the fenced register.
	 */
	private URI registerUri = URI.create("http://127.0.0.1:8080/");

	/**
	 * Time to spend working on the register while holding its lock, as a slow critical
	 * section would.
	 */
	private Duration workTime = Duration.ofMillis(10);

	/**
	 * Number of threads that increment the counter key, handing its lock to one another.
	 */
	private int counterThreads = 1;

	/**
	 * Time between two increments of the kept key by this process's thread for it, so that a
	 * process that keeps locks ({@code zklock.lock.keep.idle-time}) keeps it in between; none
	 * for no such thread.
	 */
	private @Nullable Duration keptKeyPause;

	/**
	 * Number of threads that mix shared reads and exclusive increments of the shared key.
	 */
	private int mixThreads = 2;

	/**
	 * Share of the operations on the shared key that are exclusive increments, from 0 to 1.
	 */
	private double mixExclusiveShare = 0.25;

	public String getProcess() {
		return this.process;
	}

	public void setProcess(String process) {
		this.process = process;
	}

	public Path getHistory() {
		return this.history;
	}

	public void setHistory(Path history) {
		this.history = history;
	}

	public URI getRegisterUri() {
		return this.registerUri;
	}

	public void setRegisterUri(URI registerUri) {
		this.registerUri = registerUri;
	}

	public Duration getWorkTime() {
		return this.workTime;
	}

	public void setWorkTime(Duration workTime) {
		this.workTime = workTime;
	}

	public int getCounterThreads() {
		return this.counterThreads;
	}

	public void setCounterThreads(int counterThreads) {
		this.counterThreads = counterThreads;
	}

	public @Nullable Duration getKeptKeyPause() {
		return this.keptKeyPause;
	}

	public void setKeptKeyPause(@Nullable Duration keptKeyPause) {
		this.keptKeyPause = keptKeyPause;
	}

	public int getMixThreads() {
		return this.mixThreads;
	}

	public void setMixThreads(int mixThreads) {
		this.mixThreads = mixThreads;
	}

	public double getMixExclusiveShare() {
		return this.mixExclusiveShare;
	}

	public void setMixExclusiveShare(double mixExclusiveShare) {
		this.mixExclusiveShare = mixExclusiveShare;
	}

}
