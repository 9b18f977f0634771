package dev.zklock.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks ZooKeeper connect strings before they reach the client, whose own parser reports
 * mistakes late and obscurely.
 */
final class ConnectStrings {

	private ConnectStrings() {
	}

	/**
	 * Check that the connect string has the form {@code host:port[,host:port...][/chroot]}.
	 * @param connectString the connect string
	 * @throws InvalidConnectStringException when it does not
	 */
	static void validate(String connectString) {
		String servers = connectString.trim();
		if (servers.isEmpty()) {
			throw new InvalidConnectStringException(connectString, "it is empty");
		}
		int chroot = servers.indexOf('/');
		if (chroot >= 0) {
			validateChroot(connectString, servers.substring(chroot));
			servers = servers.substring(0, chroot);
		}
		for (String server : servers.split(",", -1)) {
			validateServer(connectString, server.trim());
		}
	}

	/**
	 * Check that at least one host of a valid connect string resolves to an address, so that a
	 * misspelt host fails at once rather than after the connection timeout. A connect string
	 * with some hosts unknown passes: the others may serve, and the client tries them all.
	 * @param connectString the connect string, already {@link #validate validated}
	 * @throws InvalidConnectStringException when none of its hosts resolves
	 */
	static void validateResolvable(String connectString) {
		List<String> unknown = new ArrayList<>();
		for (String host : hosts(connectString)) {
			try {
				InetAddress.getAllByName(host);
				return;
			}
			catch (UnknownHostException ex) {
				unknown.add(host);
			}
		}
		String problem = (unknown.size() == 1) ? "host '" + unknown.get(0) + "' is unknown"
				: "none of its hosts is known (" + String.join(", ", unknown) + ")";
		throw new InvalidConnectStringException(connectString, problem + ": it does not resolve to an address");
	}

	private static List<String> hosts(String connectString) {
		String servers = connectString.trim();
		int chroot = servers.indexOf('/');
		if (chroot >= 0) {
			servers = servers.substring(0, chroot);
		}
		List<String> hosts = new ArrayList<>();
		for (String server : servers.split(",")) {
			String entry = server.trim();
			if (entry.startsWith("[")) {
				hosts.add(entry.substring(1, entry.indexOf(']')));
				continue;
			}
			int colon = entry.lastIndexOf(':');
			hosts.add((colon < 0) ? entry : entry.substring(0, colon));
		}
		return hosts;
	}

	private static void validateServer(String connectString, String server) {
		if (server.isEmpty()) {
			throw new InvalidConnectStringException(connectString, "it has an empty server entry");
		}
		int colon = server.lastIndexOf(':');
		boolean bracketed = server.startsWith("[");
		if (bracketed && (colon < server.indexOf(']'))) {
			return;
		}
		if (colon < 0) {
			return;
		}
		String host = server.substring(0, colon);
		String port = server.substring(colon + 1);
		if (host.isEmpty()) {
			throw new InvalidConnectStringException(connectString, "server '" + server + "' has no host");
		}
		if (!bracketed && host.contains(":")) {
			throw new InvalidConnectStringException(connectString,
					"server '" + server + "' is not of the form host:port (enclose IPv6 addresses in [])");
		}
		try {
			int number = Integer.parseInt(port);
			if (number < 1 || number > 65535) {
				throw new InvalidConnectStringException(connectString,
						"server '" + server + "' has port " + number + ", outside 1-65535");
			}
		}
		catch (NumberFormatException ex) {
			throw new InvalidConnectStringException(connectString,
					"server '" + server + "' has port '" + port + "', which is not a number");
		}
	}

	private static void validateChroot(String connectString, String chroot) {
		if (chroot.length() > 1 && (chroot.endsWith("/") || chroot.contains("//"))) {
			throw new InvalidConnectStringException(connectString,
					"chroot '" + chroot + "' must not end with '/' or contain empty segments");
		}
	}

}
