package dev.zklock.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.zookeeper.client.ConnectStringParser;
import org.jspecify.annotations.Nullable;

/**
 * Reads a ZooKeeper server's version with the {@code srvr} four-letter word, the one that servers
 * 3.5 and later answer by default ({@code 4lw.commands.whitelist}), over a plaintext connection of
 * its own. The client protocol itself carries no version, and a server may not answer
 * {@code srvr} (a TLS-only port, a whitelist without it): callers must cope with no answer.
 * Internal: not part of the API.
 *
 * @since 0.1.0
 */
public final class ZooKeeperServerVersions {

	private static final int TIMEOUT_MS = 2000;

	private static final Pattern VERSION = Pattern.compile("^Zookeeper version: ([0-9][^-,\\s]*)",
			Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);

	private ZooKeeperServerVersions() {
	}

	/**
	 * Return the version of the first server of the connect string that answers {@code srvr}.
	 * @param connectString the connect string
	 * @return the version, such as {@code 3.4.14}, or {@code null} if no server answered
	 */
	public static @Nullable String read(String connectString) {
		for (InetSocketAddress server : new ConnectStringParser(connectString).getServerAddresses()) {
			String version = read(server);
			if (version != null) {
				return version;
			}
		}
		return null;
	}

	private static @Nullable String read(InetSocketAddress server) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(server.getHostString(), server.getPort()), TIMEOUT_MS);
			socket.setSoTimeout(TIMEOUT_MS);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return parse(new String(in.readNBytes(4096), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * Return the version in a {@code srvr} reply.
	 * @param reply the reply
	 * @return the version, such as {@code 3.4.14}, or {@code null} if the reply has none
	 */
	public static @Nullable String parse(String reply) {
		Matcher version = VERSION.matcher(reply);
		return version.find() ? version.group(1) : null;
	}

	/**
	 * Return whether a version is the given line or a later one.
	 * @param version a version such as {@code 3.6.4}
	 * @param major the line's major version
	 * @param minor the line's minor version
	 * @return whether {@code version} is {@code major.minor} or later; {@code true} for a version
	 * that does not parse
	 */
	public static boolean isAtLeast(String version, int major, int minor) {
		String[] parts = version.split("\\.");
		try {
			int actualMajor = Integer.parseInt(parts[0]);
			int actualMinor = (parts.length > 1) ? Integer.parseInt(parts[1]) : 0;
			return actualMajor > major || (actualMajor == major && actualMinor >= minor);
		}
		catch (NumberFormatException ex) {
			return true;
		}
	}

}
