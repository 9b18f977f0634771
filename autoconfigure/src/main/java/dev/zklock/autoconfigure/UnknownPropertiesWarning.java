package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.util.StreamUtils;

/**
 * Warns at startup, once for each, of {@code zklock.*} properties that nothing binds (a guessed
 * name such as {@code zklock.zookeeper.connect-string}, a typo), naming the nearest known
 * property, as Spring Boot's property migrator does for renamed ones. The known properties are
 * those of the configuration metadata ({@code META-INF/spring-configuration-metadata.json});
 * an element of a map or list property ({@code zklock.leader.min-participants.orders}) is
 * known by its property.
 */
class UnknownPropertiesWarning implements InitializingBean {

	private static final Log logger = LogFactory.getLog(UnknownPropertiesWarning.class);

	private static final ConfigurationPropertyName ZKLOCK = ConfigurationPropertyName.of("zklock");

	/**
	 * The system properties of the test helpers (zklock-test), read by them, not bound.
	 */
	private static final ConfigurationPropertyName TEST_HELPERS = ConfigurationPropertyName.of("zklock.test");

	private static final Pattern PROPERTY = Pattern.compile("\"name\"\\s*:\\s*\"(zklock\\.[^\"]+)\"");

	private final Environment environment;

	UnknownPropertiesWarning(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterPropertiesSet() {
		List<ConfigurationPropertyName> known = knownProperties();
		if (known.isEmpty()) {
			return;
		}
		for (ConfigurationPropertyName name : unknown(setProperties(), known)) {
			logger.warn("Property '" + name + "' is not a zklock property and is ignored; did you mean '"
					+ nearest(name, known) + "'? (see the Properties section of the zklock guide)");
		}
	}

	/**
	 * Return the names among {@code set} that are no known property, nor an element of a known
	 * map or list property.
	 */
	static List<ConfigurationPropertyName> unknown(Set<ConfigurationPropertyName> set,
			List<ConfigurationPropertyName> known) {
		List<ConfigurationPropertyName> unknown = new ArrayList<>();
		for (ConfigurationPropertyName name : set) {
			boolean bound = TEST_HELPERS.isAncestorOf(name)
					|| known.stream().anyMatch((property) -> property.equals(name) || property.isAncestorOf(name));
			if (!bound) {
				unknown.add(name);
			}
		}
		return unknown;
	}

	/**
	 * Return the known property nearest to an unknown one: one with the same last element if
	 * there is (a guessed prefix), else the one fewest character edits away (a typo).
	 */
	static ConfigurationPropertyName nearest(ConfigurationPropertyName name, List<ConfigurationPropertyName> known) {
		String last = name.getLastElement(ConfigurationPropertyName.Form.UNIFORM);
		return known.stream()
			.min(Comparator
				.comparing((ConfigurationPropertyName property) -> !property
					.getLastElement(ConfigurationPropertyName.Form.UNIFORM)
					.equals(last))
				.thenComparingInt((property) -> distance(property.toString(), name.toString())))
			.orElseThrow();
	}

	private Set<ConfigurationPropertyName> setProperties() {
		Set<ConfigurationPropertyName> names = new TreeSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(ZKLOCK::isAncestorOf).forEach(names::add);
			}
		}
		return names;
	}

	private static List<ConfigurationPropertyName> knownProperties() {
		Set<String> names = new LinkedHashSet<>();
		try {
			ClassLoader classLoader = UnknownPropertiesWarning.class.getClassLoader();
			Enumeration<URL> resources = classLoader.getResources("META-INF/spring-configuration-metadata.json");
			while (resources.hasMoreElements()) {
				try (InputStream in = resources.nextElement().openStream()) {
					Matcher matcher = PROPERTY.matcher(StreamUtils.copyToString(in, StandardCharsets.UTF_8));
					while (matcher.find()) {
						names.add(matcher.group(1));
					}
				}
			}
		}
		catch (IOException ex) {
			logger.debug("Could not read the configuration metadata", ex);
			return List.of();
		}
		List<ConfigurationPropertyName> all = names.stream()
			.filter(ConfigurationPropertyName::isValid)
			.map(ConfigurationPropertyName::of)
			.toList();
		// Groups (zklock.lock, ...) are the names that are ancestors of others: not properties.
		return all.stream().filter((name) -> all.stream().noneMatch(name::isAncestorOf)).toList();
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
