package dev.zklock.systemtest.shedlock;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.test.JavaProcess;
import dev.zklock.test.JavaProcessBuilder;

/**
 * One process of the {@link ReportApplication}, in one {@link LockProviderSetup}, connected
 * straight to the ensemble. Closing it kills it.
 */
final class ReportProcess implements AutoCloseable {

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

	private static final Pattern READY = Pattern.compile("^" + Pattern.quote(ReportApplication.READY) + "(\\S+)$",
			Pattern.MULTILINE);

	private final String name;

	private final JavaProcess process;

	private ReportProcess(String name, JavaProcess process) {
		this.name = name;
		this.process = process;
	}

	/**
	 * Start a process, without waiting for it to be ready.
	 * @param name its name in the history
	 * @param setup its lock provider and classpath
	 * @param connectString the ensemble's connect string
	 * @param sessionTimeout the session timeout its client asks for
	 * @param jobTime the time each run of its job takes
	 * @param folder the test's folder: the history goes to {@code history/<name>.jsonl}, the
	 * output to {@code logs/<name>.log}
	 * @return the process
	 */
	static ReportProcess start(String name, LockProviderSetup setup, String connectString, Duration sessionTimeout,
			Duration jobTime, Path folder) {
		JavaProcessBuilder builder = JavaProcess.builder(ReportApplication.class)
			.name(name)
			.classpath(setup.classpath())
			.output(folder.resolve("logs").resolve(name + ".log"))
			.jvmArgs("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k")
			.systemProperty("systemtest.process", name)
			.systemProperty("systemtest.history", folder.resolve("history").resolve(name + ".jsonl").toString())
			.systemProperty("systemtest.connect-string", connectString)
			.systemProperty("systemtest.session-timeout", sessionTimeout.toMillis() + "ms")
			.systemProperty("systemtest.job-time", jobTime.toMillis() + "ms")
			.systemProperty("spring.application.name", name)
			.systemProperty("spring.main.banner-mode", "off")
			.systemProperty("logging.level.root", "WARN");
		String profile = setup.profile();
		if (profile != null) {
			builder.systemProperty("spring.profiles.active", profile);
		}
		return new ReportProcess(name, builder.start());
	}

	String name() {
		return this.name;
	}

	/**
	 * Wait until the application has started and connected.
	 * @return the class name of its {@code LockProvider}
	 */
	String awaitReady() {
		this.process.awaitOutput("^" + Pattern.quote(ReportApplication.READY) + "\\S+$", READY_TIMEOUT);
		Matcher matcher = READY.matcher(this.process.outputText());
		if (!matcher.find()) {
			throw new IllegalStateException(this.name + " printed no lock provider");
		}
		return matcher.group(1);
	}

	/**
	 * Kill the process with {@code SIGKILL} and wait until it is gone.
	 */
	void kill() {
		this.process.kill();
	}

	@Override
	public void close() {
		this.process.close();
	}

	@Override
	public String toString() {
		return this.name + " (pid " + this.process.pid() + ")";
	}

}
