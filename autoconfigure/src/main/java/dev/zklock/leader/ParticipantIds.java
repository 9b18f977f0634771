package dev.zklock.leader;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.util.StringUtils;

/**
 * Makes readable participant ids that differ between instances, such as
 * {@code inventory@host-1:4242}: the application name, the host name and the process id, with a
 * suffix ({@code #2}, {@code #3}...) for every further instance in the same process.
 *
 * @since 0.1.0
 */
public final class ParticipantIds {

	private static final AtomicInteger instances = new AtomicInteger();

	private ParticipantIds() {
	}

	/**
	 * Return a participant id for a new instance of the application.
	 * @param applicationName the application name
	 * @return the participant id
	 */
	public static String next(String applicationName) {
		int instance = instances.incrementAndGet();
		String id = applicationName + "@" + hostName() + ":" + ProcessHandle.current().pid();
		return (instance > 1) ? id + "#" + instance : id;
	}

	/**
	 * Return a participant id without the suffix of further instances: the default of a lock
	 * template that was not given one.
	 * @param applicationName the application name
	 * @return the participant id
	 * @since 0.2.0
	 */
	public static String unnumbered(String applicationName) {
		return applicationName + "@" + hostName() + ":" + ProcessHandle.current().pid();
	}

	private static String hostName() {
		String hostName = System.getenv("HOSTNAME");
		if (StringUtils.hasText(hostName)) {
			return hostName;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "localhost";
		}
	}

}
