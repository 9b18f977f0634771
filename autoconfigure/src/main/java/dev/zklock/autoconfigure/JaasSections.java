package dev.zklock.autoconfigure;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;

import org.jspecify.annotations.Nullable;

/**
 * The JAAS login sections of zklock's SASL clients, one per client, served to the ZooKeeper
 * client from memory.
 * <p>
 * The ZooKeeper client looks its login section up in the JVM's one JAAS
 * {@link Configuration}, and nowhere else: this is the one JVM-wide setting SASL cannot do
 * without. zklock installs this configuration in front of the one the JVM had, adding a
 * section of its own per client (so two clients in one JVM may log in as different users) and
 * passing every other name to the previous configuration, so that a JAAS file given with
 * {@code -Djava.security.auth.login.config} keeps working for everyone else. If something
 * replaces the JVM's configuration afterwards, zklock's sections disappear with it:
 * {@link #isVisible(String)} tells, and the next section added installs this configuration again
 * in front of the new one.
 */
final class JaasSections extends Configuration {

	private static final Map<String, AppConfigurationEntry[]> sections = new ConcurrentHashMap<>();

	private static final AtomicLong counter = new AtomicLong();

	private final @Nullable Configuration previous;

	private JaasSections(@Nullable Configuration previous) {
		this.previous = previous;
	}

	/**
	 * Add a login section with one entry, installing zklock's configuration if the JVM's
	 * current one is not it.
	 * @param entry the login module and its options
	 * @return the new section's name
	 */
	static String add(AppConfigurationEntry entry) {
		synchronized (JaasSections.class) {
			String name = "zklock-client-" + counter.incrementAndGet();
			sections.put(name, new AppConfigurationEntry[] { entry });
			Configuration current = current();
			if (!(current instanceof JaasSections)) {
				Configuration.setConfiguration(new JaasSections(current));
			}
			return name;
		}
	}

	/**
	 * Remove a section added by {@link #add(AppConfigurationEntry)}.
	 * @param name the section's name
	 */
	static void remove(String name) {
		sections.remove(name);
	}

	/**
	 * Return whether the JVM's current JAAS configuration has a section of the given name.
	 * @param name the section's name
	 * @return whether a login with that name would find its section
	 */
	static boolean isVisible(String name) {
		Configuration current = current();
		try {
			return current != null && current.getAppConfigurationEntry(name) != null;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static @Nullable Configuration current() {
		try {
			return Configuration.getConfiguration();
		}
		catch (SecurityException ex) {
			// A JAAS file that cannot be read: only zklock's sections can be served
			return null;
		}
	}

	@Override
	public AppConfigurationEntry @Nullable [] getAppConfigurationEntry(String name) {
		AppConfigurationEntry[] entries = sections.get(name);
		if (entries != null) {
			return entries.clone();
		}
		return (this.previous != null) ? this.previous.getAppConfigurationEntry(name) : null;
	}

	@Override
	public void refresh() {
		if (this.previous != null) {
			this.previous.refresh();
		}
	}

}
