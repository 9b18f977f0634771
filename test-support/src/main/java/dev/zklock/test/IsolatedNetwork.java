package dev.zklock.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small private network for the servers of a {@link ZooKeeperEnsemble}, made of Linux network
 * namespaces, in which parts of the ensemble can be cut off from each other: each server lives
 * in a namespace of its own with one address on a private /24 subnet, and a switch (a bridge, in
 * a namespace of its own) joins them. This JVM and the processes it starts reach every server
 * through one more link into the switch, with the subnet's address {@code .100}, so clients keep
 * reaching a server that {@link #partition(Collection) partitions} cut off from the others.
 * <p>
 * Needs Linux, root, and iproute2's {@code ip} and {@code iptables}; {@link #unavailableReason()}
 * says what is missing. Everything is created by the test, named after this JVM's process id
 * (and a random letter), and removed by {@link #close()}, or by a shutdown hook should the JVM
 * exit without it, or, should the JVM be killed, by the next network made on the machine. Nothing
 * leaves the machine: the subnet has no route anywhere else.
 */
public final class IsolatedNetwork implements AutoCloseable {

	private static final long COMMAND_SECONDS = 20;

	private final String prefix;

	private final String subnet;

	private final int hosts;

	private final List<String> namespaces = new ArrayList<>();

	private final AtomicBoolean closed = new AtomicBoolean();

	private final Thread shutdownHook;

	private IsolatedNetwork(String prefix, String subnet, int hosts) {
		this.prefix = prefix;
		this.subnet = subnet;
		this.hosts = hosts;
		this.shutdownHook = new Thread(this::removeQuietly, "zklock-isolated-network-cleanup");
	}

	/**
	 * Return why such a network cannot be made here, or nothing when it can.
	 * @return the reason, for a skipped test to give
	 */
	public static Optional<String> unavailableReason() {
		if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
			return Optional.of("network namespaces need Linux");
		}
		if (!"root".equals(System.getProperty("user.name"))) {
			return Optional.of("network namespaces need root (running as " + System.getProperty("user.name") + ")");
		}
		for (String tool : List.of("ip", "iptables")) {
			if (!Files.isExecutable(Path.of(tool(tool)))) {
				return Optional.of("'" + tool + "' is not installed (Debian packages iproute2 and iptables)");
			}
		}
		return Optional.empty();
	}

	/**
	 * Make a network for the given number of hosts, numbered from 1.
	 * @param hosts the number of hosts
	 * @return the network, every host reachable from this JVM and from the others
	 * @throws IllegalStateException if it cannot be made; nothing is left behind then
	 */
	public static IsolatedNetwork create(int hosts) {
		unavailableReason().ifPresent((reason) -> {
			throw new IllegalStateException("Cannot make an isolated network: " + reason);
		});
		removeLeftovers();
		SecureRandom random = new SecureRandom();
		// the creating JVM's pid, so that a later run can tell leftovers of a JVM that died
		String prefix = "zkl" + ProcessHandle.current().pid() + (char) ('a' + random.nextInt(26));
		String subnet = "10." + (200 + random.nextInt(50)) + "." + random.nextInt(256);
		IsolatedNetwork network = new IsolatedNetwork(prefix, subnet, hosts);
		Runtime.getRuntime().addShutdownHook(network.shutdownHook);
		try {
			network.build();
			return network;
		}
		catch (RuntimeException ex) {
			network.close();
			throw ex;
		}
	}

	/**
	 * Remove the namespaces and links of networks whose JVM died without closing them (killed
	 * with {@code SIGKILL}, where no shutdown hook runs).
	 */
	private static void removeLeftovers() {
		Pattern name = Pattern.compile("^(zkl(\\d+)[a-z])-\\S*");
		Set<String> prefixes = new HashSet<>();
		String namespaces;
		try {
			namespaces = output(ip(), "netns", "list");
		}
		catch (RuntimeException ex) {
			return;
		}
		for (String line : namespaces.lines().toList()) {
			Matcher matcher = name.matcher(line.trim());
			if (matcher.find() && ProcessHandle.of(Long.parseLong(matcher.group(2))).isEmpty()) {
				runQuietly(ip(), "netns", "del", line.trim().split("\\s+")[0]);
				prefixes.add(matcher.group(1));
			}
		}
		prefixes.forEach((prefix) -> runQuietly(ip(), "link", "del", prefix + "h"));
	}

	private void build() {
		String sw = namespace("sw");
		run("ip", "netns", "add", sw);
		this.namespaces.add(sw);
		run("ip", "-n", sw, "link", "set", "lo", "up");
		run("ip", "-n", sw, "link", "add", "br0", "type", "bridge");
		run("ip", "-n", sw, "link", "set", "br0", "up");
		// this JVM's link into the switch
		String host = this.prefix + "h";
		run("ip", "link", "add", host, "type", "veth", "peer", "name", this.prefix + "hp");
		run("ip", "link", "set", this.prefix + "hp", "netns", sw);
		run("ip", "-n", sw, "link", "set", this.prefix + "hp", "master", "br0", "up");
		run("ip", "addr", "add", this.subnet + ".100/24", "dev", host);
		run("ip", "link", "set", host, "up");
		for (int id = 1; id <= this.hosts; id++) {
			String ns = namespace("s" + id);
			run("ip", "netns", "add", ns);
			this.namespaces.add(ns);
			String inside = this.prefix + "v" + id;
			String outside = this.prefix + "w" + id;
			run("ip", "link", "add", inside, "type", "veth", "peer", "name", outside);
			run("ip", "link", "set", inside, "netns", ns);
			run("ip", "link", "set", outside, "netns", sw);
			run("ip", "-n", sw, "link", "set", outside, "master", "br0", "up");
			run("ip", "-n", ns, "link", "set", "lo", "up");
			run("ip", "-n", ns, "addr", "add", address(id) + "/24", "dev", inside);
			run("ip", "-n", ns, "link", "set", inside, "up");
		}
	}

	/**
	 * Return the address of a host.
	 * @param id the host, from 1
	 * @return its IPv4 address
	 */
	public String address(int id) {
		check(id);
		return this.subnet + "." + id;
	}

	/**
	 * Return the command that runs a program inside a host's namespace: prefix it to the
	 * program's own command.
	 * @param id the host, from 1
	 * @return {@code ip netns exec <namespace>}
	 */
	public List<String> launcher(int id) {
		check(id);
		return List.of(ip(), "netns", "exec", namespace("s" + id));
	}

	/**
	 * Return the number of hosts.
	 * @return the hosts
	 */
	public int hosts() {
		return this.hosts;
	}

	/**
	 * Cut the given groups of hosts off from each other: no packet passes between two hosts of
	 * different groups, either way, until {@link #heal()}. Hosts in no group keep every link,
	 * and every host keeps its link to this JVM and the processes it starts.
	 * @param groups the groups, each a set of hosts
	 */
	public void partition(Collection<Set<Integer>> groups) {
		List<Set<Integer>> sides = List.copyOf(groups);
		for (int a = 0; a < sides.size(); a++) {
			for (int b = 0; b < sides.size(); b++) {
				if (a == b) {
					continue;
				}
				for (int from : sides.get(a)) {
					for (int to : sides.get(b)) {
						String ns = namespace("s" + from);
						run("ip", "netns", "exec", ns, "iptables", "-A", "INPUT", "-s", address(to), "-j", "DROP");
						run("ip", "netns", "exec", ns, "iptables", "-A", "OUTPUT", "-d", address(to), "-j", "DROP");
					}
				}
			}
		}
	}

	/**
	 * Undo every partition: all hosts reach each other again.
	 */
	public void heal() {
		for (int id = 1; id <= this.hosts; id++) {
			run("ip", "netns", "exec", namespace("s" + id), "iptables", "-F");
		}
	}

	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			removeQuietly();
			try {
				Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
			}
			catch (IllegalStateException ex) {
				// the JVM is shutting down: the hook runs anyway
			}
		}
	}

	private void removeQuietly() {
		// deleting a namespace deletes the links in it, and with them their other ends
		for (String ns : this.namespaces) {
			runQuietly(ip(), "netns", "del", ns);
		}
		runQuietly(ip(), "link", "del", this.prefix + "h");
	}

	private String namespace(String suffix) {
		return this.prefix + "-" + suffix;
	}

	private void check(int id) {
		if (id < 1 || id > this.hosts) {
			throw new IllegalArgumentException("No host " + id + " in a network of " + this.hosts);
		}
	}

	private static String ip() {
		return tool("ip");
	}

	private static String tool(String name) {
		for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
			Path candidate = Path.of(dir, name);
			if (Files.isExecutable(candidate)) {
				return candidate.toString();
			}
		}
		return name;
	}

	private static void run(String... command) {
		output(command);
	}

	private static String output(String... command) {
		List<String> resolved = new ArrayList<>(List.of(command));
		if (!command[0].contains("/")) {
			resolved.set(0, tool(command[0]));
		}
		int exit;
		String output;
		try {
			Process process = new ProcessBuilder(resolved).redirectErrorStream(true).start();
			process.getOutputStream().close();
			if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " did not finish within " + COMMAND_SECONDS
						+ " s");
			}
			output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			exit = process.exitValue();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not run " + String.join(" ", command), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + String.join(" ", command), ex);
		}
		if (exit != 0) {
			throw new IllegalStateException(String.join(" ", command) + " failed (exit " + exit + "): " + output);
		}
		return output;
	}

	private static void runQuietly(String... command) {
		try {
			run(command);
		}
		catch (RuntimeException ex) {
			// already gone, or the JVM is exiting: nothing more to do
		}
	}

}
