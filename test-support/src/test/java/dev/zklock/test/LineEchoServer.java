package dev.zklock.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that answers each line with {@code <name>:<line>}, records what it received
 * and can push a line to every connected client.
 */
final class LineEchoServer implements AutoCloseable {

	private final String name;

	private final ServerSocket serverSocket;

	private final List<String> received = new CopyOnWriteArrayList<>();

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private final AtomicInteger accepted = new AtomicInteger();

	private final Thread acceptor;

	LineEchoServer(String name) {
		this.name = name;
		try {
			this.serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.acceptor = new Thread(this::accept, "echo-" + name);
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	InetSocketAddress address() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), this.serverSocket.getLocalPort());
	}

	List<String> received() {
		return List.copyOf(this.received);
	}

	int acceptedCount() {
		return this.accepted.get();
	}

	int openCount() {
		return this.open.size();
	}

	void push(String line) throws IOException {
		for (Socket socket : this.open) {
			socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
		}
	}

	private void accept() {
		while (true) {
			Socket socket;
			try {
				socket = this.serverSocket.accept();
			}
			catch (IOException ex) {
				return;
			}
			this.accepted.incrementAndGet();
			this.open.add(socket);
			Thread thread = new Thread(() -> echo(socket), "echo-" + this.name + "-" + socket.getPort());
			thread.setDaemon(true);
			thread.start();
		}
	}

	private void echo(Socket socket) {
		try (socket) {
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
			String line;
			while ((line = in.readLine()) != null) {
				this.received.add(line);
				out.println(this.name + ":" + line);
			}
		}
		catch (IOException ex) {
			// the client went away
		}
		finally {
			this.open.remove(socket);
		}
	}

	@Override
	public void close() throws IOException {
		this.serverSocket.close();
		for (Socket socket : this.open) {
			socket.close();
		}
	}

}
