package dev.zklock.benchmarks.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a ZooKeeper server has counted so far, from its {@code srvr} four-letter command: the
 * packets it received from clients (one per request, ping or connect) and the zxid of its last
 * transaction (one per write).
 *
 * @param received the packets received from clients
 * @param zxid the last zxid
 */
record ServerCounters(long received, long zxid) {

	private static final int TIMEOUT_MILLIS = 5000;

	private static final Pattern RECEIVED = Pattern.compile("^Received: (\\d+)", Pattern.MULTILINE);

	private static final Pattern ZXID = Pattern.compile("^Zxid: 0x([0-9a-fA-F]+)", Pattern.MULTILINE);

	/**
	 * Ask the server on the given loopback client port.
	 * @param clientPort the port
	 * @return its counters
	 * @throws UncheckedIOException if it does not answer
	 */
	static ServerCounters read(int clientPort) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", clientPort), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("ZooKeeper on port " + clientPort + " did not answer 'srvr'", ex);
		}
	}

	static ServerCounters parse(String reply) {
		Matcher received = RECEIVED.matcher(reply);
		Matcher zxid = ZXID.matcher(reply);
		if (!received.find() || !zxid.find()) {
			throw new IllegalStateException("Unexpected reply to 'srvr': " + reply);
		}
		return new ServerCounters(Long.parseLong(received.group(1)), Long.parseUnsignedLong(zxid.group(1), 16));
	}

	/**
	 * Return what was counted between an earlier reading and this one.
	 * @param earlier the earlier reading
	 * @return the differences
	 */
	ServerCounters since(ServerCounters earlier) {
		return new ServerCounters(this.received - earlier.received, this.zxid - earlier.zxid);
	}

}
