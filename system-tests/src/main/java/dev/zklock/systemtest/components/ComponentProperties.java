package dev.zklock.systemtest.components;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the component application, set by the system test that starts it.
 */
@ConfigurationProperties("systemtest")
public class ComponentProperties {

	/**
	 * Name of this process in the history.
	 */
	private String process = "app";

	/**
	 * File this process appends its operations to.
	 */
	private Path history = Path.of("history.jsonl");

	/**
	 * Start of the names of the groups, {@code <prefix>-1} to {@code <prefix>-4}, one
	 * component each.
	 */
	private String groupPrefix = "components";

	/**
	 * Time each component's {@code stop()} takes, as a listener container that finishes the
	 * messages it is processing: the component runs until its stop returns.
	 */
	private Duration stopTime = Duration.ZERO;

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

	public String getGroupPrefix() {
		return this.groupPrefix;
	}

	public void setGroupPrefix(String groupPrefix) {
		this.groupPrefix = groupPrefix;
	}

	public Duration getStopTime() {
		return this.stopTime;
	}

	public void setStopTime(Duration stopTime) {
		this.stopTime = stopTime;
	}

}
