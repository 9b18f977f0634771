package dev.zklock.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a ZooKeeper server says about itself in reply to the {@code srvr} four-letter command.
 *
 * @param mode {@code leader}, {@code follower}, {@code observer}, {@code standalone}, or
 * {@code down} when the server does not answer or does not serve clients (for example while it
 * takes part in an election)
 * @param zxid the last transaction id the server has seen, or -1 when it is down
 * @param connections the clients connected to it, or -1 when it is down
 */
record ServerStatus(String mode, long zxid, int connections) {

	static final String DOWN_MODE = "down";

	static final ServerStatus DOWN = new ServerStatus(DOWN_MODE, -1, -1);

	private static final int TIMEOUT_MILLIS = 2000;

	private static final Pattern MODE = Pattern.compile("^Mode: (\\S+)", Pattern.MULTILINE);

	private static final Pattern ZXID = Pattern.compile("^Zxid: 0x([0-9a-fA-F]+)", Pattern.MULTILINE);

	private static final Pattern CONNECTIONS = Pattern.compile("^Connections: (\\d+)", Pattern.MULTILINE);

	/**
	 * Ask the server on the given client address.
	 * @param host the server's address
	 * @param clientPort the port
	 * @return its status, {@link #DOWN} if it does not answer in time
	 */
	static ServerStatus query(String host, int clientPort) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, clientPort), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			return DOWN;
		}
	}

	static ServerStatus parse(String reply) {
		Matcher mode = MODE.matcher(reply);
		if (!mode.find()) {
			return DOWN;
		}
		Matcher zxid = ZXID.matcher(reply);
		Matcher connections = CONNECTIONS.matcher(reply);
		return new ServerStatus(mode.group(1), zxid.find() ? Long.parseUnsignedLong(zxid.group(1), 16) : 0,
				connections.find() ? Integer.parseInt(connections.group(1)) : 0);
	}

	/**
	 * Return whether the server serves clients.
	 * @return whether it is up
	 */
	boolean isServing() {
		return !DOWN_MODE.equals(this.mode);
	}

	/**
	 * Return the leader epoch of the last transaction, the high 32 bits of the zxid.
	 * @return the epoch
	 */
	long epoch() {
		return this.zxid >>> 32;
	}

}
