package dev.zklock.leader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on the loopback address between one client and a ZooKeeper server, that can cut
 * the client off: by dropping every byte while keeping the connections open (a network
 * partition, which the client notices only by its read timeout), or by closing the connections
 * and refusing new ones.
 */
final class LoopbackProxy implements AutoCloseable {

	private enum Mode {

		FORWARD, BLACKHOLE, REFUSE

	}

	private final int targetPort;

	private final ServerSocket serverSocket;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile Mode mode = Mode.FORWARD;

	LoopbackProxy(int targetPort) {
		this.targetPort = targetPort;
		try {
			this.serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "loopback-proxy-" + this.serverSocket.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	String getConnectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + this.serverSocket.getLocalPort();
	}

	/**
	 * Drop all traffic from now on, in both directions, without closing anything.
	 */
	void blackhole() {
		this.mode = Mode.BLACKHOLE;
	}

	/**
	 * Close every connection and refuse new ones.
	 */
	void refuse() {
		this.mode = Mode.REFUSE;
		closeConnections();
	}

	/**
	 * Forward traffic again, on new connections: connections that lost traffic are closed.
	 */
	void forward() {
		if (this.mode != Mode.FORWARD) {
			this.mode = Mode.FORWARD;
			closeConnections();
		}
	}

	@Override
	public void close() {
		this.mode = Mode.REFUSE;
		try {
			this.serverSocket.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
		closeConnections();
	}

	private void accept() {
		while (!this.serverSocket.isClosed()) {
			try {
				Socket client = this.serverSocket.accept();
				if (this.mode == Mode.REFUSE) {
					client.close();
					continue;
				}
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.targetPort);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// Closed, or the server is down: the client sees its connection fail.
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					if (this.mode == Mode.FORWARD) {
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
			catch (IOException ex) {
				// The connection was closed.
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "loopback-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	private void closeConnections() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
	}

	private void closeQuietly(Socket socket) {
		this.sockets.remove(socket);
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
	}

}
