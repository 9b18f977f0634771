package dev.zklock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * A TCP proxy on loopback that a test controls to inject network faults between one client and
 * its servers: it listens on one local port per upstream server, and a client given
 * {@link #connectString()} can reach the servers only through it, so that
 * {@link #blackhole()} partitions the client from every server at once.
 * <p>
 * In {@link Mode#PASS} bytes are forwarded both ways. In {@link Mode#BLACKHOLE} connections stay
 * open but every byte read from either side is dropped, and new connections are accepted but
 * never connected upstream: the client sees silence, as in a network partition, and its reads
 * time out. Closes are not passed through a blackhole either. {@link #heal()} returns to
 * {@code PASS}: new connections flow again, and connections that carried nothing during the
 * blackhole go on as before, but every connection that dropped bytes, or was accepted during the
 * blackhole, is reset, because its byte streams have gaps (a ZooKeeper client reconnects, as it
 * would after a long partition).
 * {@link #cutConnections()} resets every current connection at once, and {@link #refuse()} also
 * closes every new one until {@code heal()}.
 * <p>
 * Thread-safe. All threads are daemons and end by {@link #close()}.
 */
public final class ChaosProxy implements AutoCloseable {

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

	private static final AtomicInteger instances = new AtomicInteger();

	private final String name = "chaos-proxy-" + instances.incrementAndGet();

	private final DaemonThreads threads = new DaemonThreads(this.name);

	private final List<ProxyListener> listeners = new ArrayList<>();

	private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean closed = new AtomicBoolean();

	private final Object modeChange = new Object();

	private volatile Mode mode = Mode.PASS;

	private volatile long delayNanos;

	private ChaosProxy() {
	}

	/**
	 * Start a proxy with one local port for each upstream server, in {@link Mode#PASS}.
	 * @param upstreams the servers to proxy to
	 * @return the started proxy
	 */
	public static ChaosProxy start(List<InetSocketAddress> upstreams) {
		if (upstreams.isEmpty()) {
			throw new IllegalArgumentException("At least one upstream server is needed");
		}
		ChaosProxy proxy = new ChaosProxy();
		try {
			for (InetSocketAddress upstream : upstreams) {
				proxy.listeners.add(new ProxyListener(proxy, upstream));
			}
		}
		catch (IOException ex) {
			proxy.close();
			throw new UncheckedIOException("Could not open a proxy port", ex);
		}
		proxy.listeners.forEach((listener) -> proxy.startThread("accept-" + listener.localPort(), listener::run));
		return proxy;
	}

	/**
	 * Start a proxy for the servers of a ZooKeeper connect string, in {@link Mode#PASS}.
	 * @param connectString servers as {@code host:port,host:port}, without a chroot
	 * @return the started proxy
	 */
	public static ChaosProxy start(String connectString) {
		List<InetSocketAddress> upstreams = new ArrayList<>();
		for (String server : connectString.split(",")) {
			int colon = server.lastIndexOf(':');
			if (colon < 0 || server.contains("/")) {
				throw new IllegalArgumentException("Not a host:port list without chroot: '" + connectString + "'");
			}
			upstreams.add(new InetSocketAddress(server.substring(0, colon).trim(),
					Integer.parseInt(server.substring(colon + 1).trim())));
		}
		return start(upstreams);
	}

	/**
	 * Return the connect string that reaches every upstream server through this proxy.
	 * @return {@code 127.0.0.1:<port>,...}, in the order of the upstream servers
	 */
	public String connectString() {
		String host = InetAddress.getLoopbackAddress().getHostAddress();
		return this.listeners.stream()
			.map((listener) -> host + ":" + listener.localPort())
			.collect(Collectors.joining(","));
	}

	/**
	 * Return the local port that proxies to each upstream server.
	 * @return the ports, in the order of the upstream servers
	 */
	public List<Integer> localPorts() {
		return this.listeners.stream().map(ProxyListener::localPort).toList();
	}

	/**
	 * Return the current mode.
	 * @return the mode
	 */
	public Mode mode() {
		return this.mode;
	}

	/**
	 * Drop all traffic from now on, keeping connections open: a partition.
	 */
	public void blackhole() {
		synchronized (this.modeChange) {
			this.mode = Mode.BLACKHOLE;
		}
	}

	/**
	 * Reset every current connection and close every new one at once, as a server that is down
	 * would: the client sees its connections fail rather than silence.
	 */
	public void refuse() {
		synchronized (this.modeChange) {
			this.mode = Mode.REFUSE;
			cutConnections();
		}
	}

	/**
	 * Forward traffic again, resetting the connections that dropped bytes while blackholed.
	 */
	public void heal() {
		synchronized (this.modeChange) {
			this.mode = Mode.PASS;
			for (ProxiedConnection connection : this.connections) {
				if (connection.hasDroppedBytes()) {
					connection.close(true);
				}
			}
		}
	}

	/**
	 * Delay every byte forwarded from now on, each way, by the given time, as a slow link would;
	 * {@code Duration.ZERO} ends the delay (bytes already delayed still arrive after theirs).
	 * Independent of the mode: a blackhole drops delayed bytes too.
	 * @param delay the delay each way
	 */
	public void delay(Duration delay) {
		this.delayNanos = delay.toNanos();
	}

	long delayNanos() {
		return this.delayNanos;
	}

	/**
	 * Reset every current connection, on both sides, at once. New connections are accepted as
	 * the mode says.
	 */
	public void cutConnections() {
		for (ProxiedConnection connection : this.connections) {
			connection.close(true);
		}
	}

	/**
	 * Return the number of open connections.
	 * @return the number of client connections not closed yet
	 */
	public int connectionCount() {
		return this.connections.size();
	}

	/**
	 * Close the ports and every connection, and wait for the proxy's threads to end.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.listeners.forEach(ProxyListener::close);
		cutConnections();
		this.threads.awaitAll(CLOSE_TIMEOUT);
	}

	String name() {
		return this.name;
	}

	boolean isPassing() {
		return this.mode == Mode.PASS;
	}

	boolean isRefusing() {
		return this.mode == Mode.REFUSE;
	}

	boolean isClosed() {
		return this.closed.get();
	}

	void add(ProxiedConnection connection) {
		this.connections.add(connection);
		if (this.closed.get()) {
			connection.close(true);
		}
	}

	void remove(ProxiedConnection connection) {
		this.connections.remove(connection);
	}

	void startThread(String name, Runnable task) {
		this.threads.start(name, task);
	}

	/**
	 * What the proxy does with traffic.
	 */
	public enum Mode {

		/**
		 * Forward bytes both ways.
		 */
		PASS,

		/**
		 * Drop every byte both ways, keeping connections open.
		 */
		BLACKHOLE,

		/**
		 * Close every connection as soon as it is accepted.
		 */
		REFUSE

	}

}
