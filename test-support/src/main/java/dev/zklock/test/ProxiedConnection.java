package dev.zklock.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * One client connection through a {@link ChaosProxy} and, while traffic passes, its connection
 * to the upstream server, with a thread pumping bytes each way. A connection that has dropped
 * bytes never forwards again: its byte streams have gaps.
 */
final class ProxiedConnection {

	private static final int CONNECT_TIMEOUT_MILLIS = 2000;

	private final ChaosProxy proxy;

	private final Socket client;

	private final InetSocketAddress upstreamAddress;

	private final AtomicBoolean closed = new AtomicBoolean();

	private volatile @Nullable Socket upstream;

	private volatile boolean droppedBytes;

	ProxiedConnection(ChaosProxy proxy, Socket client, InetSocketAddress upstreamAddress) {
		this.proxy = proxy;
		this.client = client;
		this.upstreamAddress = upstreamAddress;
	}

	void start() {
		if (this.closed.get()) {
			return;
		}
		this.proxy.startThread("client-" + this.client.getPort(), this::runClientSide);
	}

	boolean hasDroppedBytes() {
		return this.droppedBytes;
	}

	private void runClientSide() {
		Socket upstream = null;
		if (this.proxy.isPassing()) {
			upstream = connectUpstream();
			if (upstream == null) {
				return;
			}
			Socket server = upstream;
			this.proxy.startThread("server-" + this.client.getPort(), () -> pump(server, this.client));
		}
		else {
			// Accepted inside a partition: nothing reaches the server, ever.
			this.droppedBytes = true;
		}
		pump(this.client, upstream);
	}

	private @Nullable Socket connectUpstream() {
		Socket socket = new Socket();
		try {
			socket.connect(this.upstreamAddress, CONNECT_TIMEOUT_MILLIS);
			socket.setTcpNoDelay(true);
			this.client.setTcpNoDelay(true);
		}
		catch (IOException ex) {
			closeQuietly(socket, false);
			close(false);
			return null;
		}
		this.upstream = socket;
		if (this.closed.get()) {
			closeQuietly(socket, true);
			return null;
		}
		return socket;
	}

	private void pump(Socket from, @Nullable Socket to) {
		byte[] buffer = new byte[8192];
		try {
			InputStream in = from.getInputStream();
			OutputStream out = (to != null) ? to.getOutputStream() : null;
			DelayedWriter delayed = null;
			int count;
			while ((count = in.read(buffer)) >= 0) {
				long delay = this.proxy.delayNanos();
				if (out != null && isForwarding() && (delay > 0 || delayed != null)) {
					// Once delayed, always through the queue, so that bytes stay in order.
					if (delayed == null) {
						delayed = new DelayedWriter(out);
						this.proxy.startThread("delay-" + this.client.getPort(), delayed::run);
					}
					delayed.add(Arrays.copyOf(buffer, count), System.nanoTime() + delay);
				}
				else if (out != null && isForwarding()) {
					out.write(buffer, 0, count);
				}
				else {
					markDropped();
				}
			}
		}
		catch (IOException ex) {
			// the stream ended, as at end of stream
		}
		ended(from);
	}

	/**
	 * Writes the bytes read from one side to the other once their delay has passed, in order.
	 */
	private final class DelayedWriter {

		private final OutputStream out;

		private final BlockingQueue<DelayedBytes> queue = new LinkedBlockingQueue<>();

		private long lastDue;

		DelayedWriter(OutputStream out) {
			this.out = out;
		}

		synchronized void add(byte[] bytes, long due) {
			this.lastDue = (this.lastDue == 0) ? due : Math.max(due, this.lastDue);
			this.queue.add(new DelayedBytes(bytes, this.lastDue));
		}

		void run() {
			try {
				while (!ProxiedConnection.this.closed.get()) {
					DelayedBytes next = this.queue.poll(100, TimeUnit.MILLISECONDS);
					if (next == null) {
						continue;
					}
					long wait = next.due() - System.nanoTime();
					if (wait > 0) {
						TimeUnit.NANOSECONDS.sleep(wait);
					}
					if (!isForwarding()) {
						markDropped();
						return;
					}
					this.out.write(next.bytes());
				}
			}
			catch (IOException | InterruptedException ex) {
				close(true);
			}
		}

	}

	private record DelayedBytes(byte[] bytes, long due) {

	}

	private boolean isForwarding() {
		return this.proxy.isPassing() && !this.droppedBytes;
	}

	private void markDropped() {
		this.droppedBytes = true;
		// A heal that ran before the flag was set did not see it: reset here instead.
		if (this.proxy.isPassing()) {
			close(true);
		}
	}

	private void ended(Socket from) {
		if (isForwarding()) {
			close(false);
			return;
		}
		// Inside a partition the other side must not learn of the close: end this side only.
		closeQuietly(from, false);
		markDropped();
	}

	void close(boolean reset) {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		closeQuietly(this.client, reset);
		Socket upstream = this.upstream;
		if (upstream != null) {
			closeQuietly(upstream, reset);
		}
		this.proxy.remove(this);
	}

	private static void closeQuietly(Socket socket, boolean reset) {
		try {
			if (reset && !socket.isClosed()) {
				socket.setSoLinger(true, 0);
			}
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
