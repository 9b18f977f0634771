package dev.zklock.systemtest.components;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.test.ChaosProxy;
import dev.zklock.test.JavaProcess;
import org.jspecify.annotations.Nullable;

/**
 * One process of the {@link ComponentApplication}, connected to ZooKeeper through its own
 * {@link ChaosProxy}, whose context the test stops and starts over its control port. Closing it
 * kills the process and stops the proxy.
 */
final class ComponentProcess implements AutoCloseable {

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(60);

	private static final Pattern READY = Pattern.compile("^" + Pattern.quote(ComponentApplication.READY) + "(\\d+)$",
			Pattern.MULTILINE);

	private final String name;

	private final ChaosProxy proxy;

	private final JavaProcess process;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	private @Nullable URI control;

	private ComponentProcess(String name, ChaosProxy proxy, JavaProcess process) {
		this.name = name;
		this.proxy = proxy;
		this.process = process;
	}

	/**
	 * Start a process, without waiting for it to be ready.
	 * @param name its name in the history
	 * @param connectString the ensemble's connect string, which its proxy forwards to
	 * @param sessionTimeout the ZooKeeper session timeout it asks for
	 * @param groupPrefix the start of its groups' names
	 * @param stopTime the time each component's stop takes
	 * @param folder the test's folder: the history goes to {@code history/<name>.jsonl}, the
	 * output to {@code logs/<name>.log}
	 * @return the process
	 */
	static ComponentProcess start(String name, String connectString, Duration sessionTimeout, String groupPrefix,
			Duration stopTime, Path folder) {
		ChaosProxy proxy = ChaosProxy.start(connectString);
		try {
			JavaProcess process = JavaProcess.builder(ComponentApplication.class)
				.name(name)
				.output(folder.resolve("logs").resolve(name + ".log"))
				.jvmArgs("-Xmx160m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k")
				.systemProperty("zklock.connect-string", proxy.connectString())
				.systemProperty("zklock.session-timeout", sessionTimeout.toMillis() + "ms")
				.systemProperty("zklock.connection-timeout", sessionTimeout.toMillis() + "ms")
				.systemProperty("spring.application.name", name)
				.systemProperty("spring.main.banner-mode", "off")
				.systemProperty("logging.level.root", "WARN")
				.systemProperty("logging.level.dev.zklock", "INFO")
				.systemProperty("systemtest.process", name)
				.systemProperty("systemtest.history", folder.resolve("history").resolve(name + ".jsonl").toString())
				.systemProperty("systemtest.group-prefix", groupPrefix)
				.systemProperty("systemtest.stop-time", stopTime.toMillis() + "ms")
				.start();
			return new ComponentProcess(name, proxy, process);
		}
		catch (RuntimeException ex) {
			proxy.close();
			throw ex;
		}
	}

	String name() {
		return this.name;
	}

	ChaosProxy proxy() {
		return this.proxy;
	}

	/**
	 * Wait until the application has started, and learn its control port.
	 */
	void awaitReady() {
		this.process.awaitOutput("^" + Pattern.quote(ComponentApplication.READY) + "\\d+$", READY_TIMEOUT);
		Matcher matcher = READY.matcher(this.process.outputText());
		if (!matcher.find()) {
			throw new IllegalStateException(this.name + " printed no control port");
		}
		this.control = URI.create("http://127.0.0.1:" + matcher.group(1) + "/context/");
	}

	/**
	 * Stop the application's context ({@code ConfigurableApplicationContext.stop()}) and wait
	 * until the call has returned.
	 */
	void stopContext() {
		post("stop");
	}

	/**
	 * Start the application's context again ({@code ConfigurableApplicationContext.start()})
	 * and wait until the call has returned.
	 */
	void startContext() {
		post("start");
	}

	@Override
	public void close() {
		try {
			this.process.close();
		}
		finally {
			this.proxy.close();
		}
	}

	@Override
	public String toString() {
		return this.name + " (pid " + this.process.pid() + ")";
	}

	private void post(String action) {
		URI control = this.control;
		if (control == null) {
			throw new IllegalStateException(this.name + " is not ready");
		}
		HttpRequest request = HttpRequest.newBuilder(control.resolve(action))
			.timeout(CONTROL_TIMEOUT)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException(
						"Could not " + action + " the context of " + this.name + ": " + response.body());
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not " + action + " the context of " + this.name, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
