package dev.zklock.systemtest.register;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * Named fenced counters served over HTTP on loopback, living in the test JVM while application
 * processes read and write them with a {@link FencedRegisterClient}. A counter starts at 0 and
 * is created on first use. See {@link FencedValue} for the fencing rules.
 * <p>
 * Protocol: {@code POST /registers/<name>/read?token=<t>&access=exclusive|shared|none} answers
 * {@code 200} with the value; {@code POST /registers/<name>/write?token=<t>&value=<v>} (with
 * {@code &access=none} for an unfenced write) answers
 * {@code 200}; an access rejected by the fence answers {@code 409} with the fence.
 */
public final class FencedRegister implements AutoCloseable {

	private static final Pattern PATH = Pattern.compile("/registers/([A-Za-z0-9._-]+)/(read|write)");

	private static final AtomicInteger instances = new AtomicInteger();

	private final Map<String, FencedValue> values = new ConcurrentHashMap<>();

	private final HttpServer server;

	private final ExecutorService executor;

	private FencedRegister(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	/**
	 * Start serving on a free loopback port.
	 * @return the started register
	 */
	public static FencedRegister start() {
		// Answers are small and written in two parts: without this, Nagle's algorithm and delayed
		// acknowledgements hold each one back for tens of milliseconds.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		String threadName = "fenced-register-" + instances.incrementAndGet();
		ExecutorService executor = Executors.newFixedThreadPool(4, (task) -> {
			Thread thread = new Thread(task, threadName);
			thread.setDaemon(true);
			return thread;
		});
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
			FencedRegister register = new FencedRegister(server, executor);
			server.createContext("/registers/", register::handle);
			server.setExecutor(executor);
			server.start();
			return register;
		}
		catch (IOException ex) {
			executor.shutdownNow();
			throw new UncheckedIOException("Could not start the fenced register", ex);
		}
	}

	/**
	 * Return the address clients use.
	 * @return {@code http://127.0.0.1:<port>/}
	 */
	public URI uri() {
		InetSocketAddress address = this.server.getAddress();
		return URI.create("http://" + address.getAddress().getHostAddress() + ":" + address.getPort() + "/");
	}

	/**
	 * Return the current state of a register, one never used included.
	 * @param name the register's name
	 * @return its state
	 */
	public RegisterState state(String name) {
		FencedValue value = this.values.get(name);
		return ((value != null) ? value : new FencedValue(name)).state();
	}

	/**
	 * Return the current state of every register used so far.
	 * @return the states, by name
	 */
	public List<RegisterState> states() {
		return this.values.values().stream().map(FencedValue::state).sorted(Comparator.comparing(RegisterState::name)).toList();
	}

	/**
	 * Stop serving and end the server's threads.
	 */
	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
		try {
			this.executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			Matcher path = PATH.matcher(exchange.getRequestURI().getPath());
			if (!"POST".equals(exchange.getRequestMethod()) || !path.matches()) {
				respond(exchange, 404, "No such operation");
				return;
			}
			Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
			FencedValue value = this.values.computeIfAbsent(path.group(1), FencedValue::new);
			try {
				long token = Long.parseLong(required(query, "token"));
				Access access = Access.valueOf(query.getOrDefault("access", "exclusive").toUpperCase());
				if ("read".equals(path.group(2))) {
					respond(exchange, 200, Long.toString(value.read(token, access)));
				}
				else {
					long newValue = Long.parseLong(required(query, "value"));
					value.write(token, access, newValue);
					respond(exchange, 200, Long.toString(newValue));
				}
			}
			catch (FenceRejectedException ex) {
				respond(exchange, 409, Long.toString(ex.getFence()));
			}
			catch (IllegalArgumentException ex) {
				respond(exchange, 400, String.valueOf(ex.getMessage()));
			}
		}
	}

	private static Map<String, String> query(@Nullable String rawQuery) {
		Map<String, String> query = new HashMap<>();
		if (rawQuery != null) {
			for (String pair : rawQuery.split("&")) {
				int equals = pair.indexOf('=');
				if (equals > 0) {
					query.put(pair.substring(0, equals), pair.substring(equals + 1));
				}
			}
		}
		return query;
	}

	private static String required(Map<String, String> query, String name) {
		String value = query.get(name);
		if (value == null) {
			throw new IllegalArgumentException("Missing parameter '" + name + "'");
		}
		return value;
	}

	private static void respond(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		// A connection per access: a client reusing a kept-alive connection that the server is
		// closing fails with nothing to tell whether its write was applied, and cannot retry.
		exchange.getResponseHeaders().set("Connection", "close");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
