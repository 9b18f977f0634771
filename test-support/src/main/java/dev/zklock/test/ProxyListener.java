package dev.zklock.test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * One local port of a {@link ChaosProxy}: accepts the connections to one upstream server.
 */
final class ProxyListener {

	private final ChaosProxy proxy;

	private final InetSocketAddress upstream;

	private final ServerSocket serverSocket;

	ProxyListener(ChaosProxy proxy, InetSocketAddress upstream) throws IOException {
		this.proxy = proxy;
		this.upstream = upstream;
		this.serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
	}

	int localPort() {
		return this.serverSocket.getLocalPort();
	}

	void run() {
		while (!this.proxy.isClosed()) {
			Socket client;
			try {
				client = this.serverSocket.accept();
			}
			catch (IOException ex) {
				return;
			}
			if (this.proxy.isRefusing()) {
				closeQuietly(client);
				continue;
			}
			ProxiedConnection connection = new ProxiedConnection(this.proxy, client, this.upstream);
			this.proxy.add(connection);
			connection.start();
		}
	}

	void close() {
		try {
			this.serverSocket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
