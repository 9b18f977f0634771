package dev.zklock.systemtest.components;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Lets a test stop and start the application's context, as an operator or a platform would
 * (a pause and resume, a checkpoint and restore): {@code POST /context/stop} calls
 * {@link ConfigurableApplicationContext#stop()}, {@code POST /context/start}
 * {@link ConfigurableApplicationContext#start()}, and each answers {@code 200} once the call has
 * returned. Served on a free loopback port, one request at a time.
 */
final class ContextControl implements DisposableBean {

	private final ConfigurableApplicationContext context;

	private final ExecutorService executor;

	private final HttpServer server;

	ContextControl(ConfigurableApplicationContext context) {
		this.context = context;
		this.executor = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "context-control");
			thread.setDaemon(true);
			return thread;
		});
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
		}
		catch (IOException ex) {
			this.executor.shutdownNow();
			throw new UncheckedIOException("Could not start the control port", ex);
		}
		this.server.createContext("/context/", this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	/**
	 * Return the port the control listens on.
	 * @return the loopback port
	 */
	int port() {
		return this.server.getAddress().getPort();
	}

	private void handle(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		int status = 200;
		String answer;
		if (!"POST".equals(exchange.getRequestMethod())) {
			status = 405;
			answer = "POST only";
		}
		else if ("/context/stop".equals(path)) {
			this.context.stop();
			answer = "stopped";
		}
		else if ("/context/start".equals(path)) {
			this.context.start();
			answer = "started";
		}
		else {
			status = 404;
			answer = "no such action: " + path;
		}
		byte[] body = answer.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(status, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void destroy() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
