package dev.zklock.systemtest.shedlock;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the report application, set by the system test that starts it.
 */
@ConfigurationProperties("systemtest")
public class ReportProperties {

	/**
	 * Name of this process in the history.
	 */
	private String process = "report";

	/**
	 * File this process appends the runs of its job to.
	 */
	private Path history = Path.of("history.jsonl");

	/**
	 * Connect string of the ZooKeeper ensemble, for the application's own Curator client.
	 */
	private String connectString = "localhost:2181";

	/**
	 * Session timeout the application's Curator client asks for.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(30);

	/**
	 * Time each run of the job takes.
	 */
	private Duration jobTime = Duration.ofMillis(100);

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

	public String getConnectString() {
		return this.connectString;
	}

	public void setConnectString(String connectString) {
		this.connectString = connectString;
	}

	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	public Duration getJobTime() {
		return this.jobTime;
	}

	public void setJobTime(Duration jobTime) {
		this.jobTime = jobTime;
	}

}
