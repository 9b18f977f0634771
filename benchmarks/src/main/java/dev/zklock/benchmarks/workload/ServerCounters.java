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
 * What a ZooKeeper server has counted so far for one session, from its four-letter commands:
 * the packets received on that session's connection ({@code cons}: one per request or ping) and
 * the zxid of the server's last transaction ({@code srvr}: one per write, whoever wrote).
 *
 * @param received the packets received on the session's connection
 * @param zxid the last zxid
 */
record ServerCounters(long received, long zxid) {

	private static final int TIMEOUT_MILLIS = 5000;

	private static final Pattern ZXID = Pattern.compile("^Zxid: 0x([0-9a-fA-F]+)", Pattern.MULTILINE);

	/**
	 * Ask the server on the given loopback client port.
	 * @param clientPort the port
	 * @param sessionId the session whose packets to count
	 * @return its counters
	 * @throws UncheckedIOException if it does not answer
	 * @throws IllegalStateException if it has no connection of that session
	 */
	static ServerCounters read(int clientPort, long sessionId) {
		return new ServerCounters(received(ask(clientPort, "cons"), sessionId), zxid(ask(clientPort, "srvr")));
	}

	static long received(String consReply, long sessionId) {
		Pattern connection = Pattern.compile("recved=(\\d+),[^)]*sid=0x" + Long.toHexString(sessionId) + "\\b");
		Matcher matcher = connection.matcher(consReply);
		if (!matcher.find()) {
			throw new IllegalStateException(
					"No connection of session 0x" + Long.toHexString(sessionId) + " in 'cons': " + consReply);
		}
		return Long.parseLong(matcher.group(1));
	}

	static long zxid(String srvrReply) {
		Matcher zxid = ZXID.matcher(srvrReply);
		if (!zxid.find()) {
			throw new IllegalStateException("Unexpected reply to 'srvr': " + srvrReply);
		}
		return Long.parseUnsignedLong(zxid.group(1), 16);
	}

	private static String ask(int clientPort, String command) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", clientPort), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write(command.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("ZooKeeper on port " + clientPort + " did not answer '" + command + "'", ex);
		}
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
