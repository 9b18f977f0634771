package dev.zklock.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A line-based test client connected to a local port, reading with a bounded wait.
 */
final class LineClient implements AutoCloseable {

	private final Socket socket;

	private final BufferedReader in;

	LineClient(int port, int readTimeoutMillis) throws IOException {
		this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
		this.socket.setSoTimeout(readTimeoutMillis);
		this.in = new BufferedReader(new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
	}

	void setReadTimeout(int millis) throws IOException {
		this.socket.setSoTimeout(millis);
	}

	void send(String line) throws IOException {
		this.socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Read a line, failing with a {@link java.net.SocketTimeoutException} when none comes in time.
	 * @return the line, or {@code null} at end of stream
	 */
	String readLine() throws IOException {
		return this.in.readLine();
	}

	String call(String line) throws IOException {
		send(line);
		return readLine();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
