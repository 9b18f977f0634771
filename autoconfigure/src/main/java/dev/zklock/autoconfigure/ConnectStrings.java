package dev.zklock.autoconfigure;

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
