package dev.zklock.sample;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLocked;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionService;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps docs/guide.md true: its properties table must list every {@code zklock.*} property of
 * the configuration metadata on the classpath, with its real default, and its attribute tables
 * every attribute of {@code @ZkLocked} and {@code @ZkLeader}, with its default.
 * <p>
 * A default cell is either {@code none...}, for a property without a default value, or starts
 * with the default as a literal in backticks, which is converted to the property's type and
 * compared with the default that a new instance of the properties class holds.
 */
class GuideTests {

	private static final Pattern ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|([^|]*)\\|");

	private static final Pattern LITERAL = Pattern.compile("^`([^`]*)`");

	private static final ConversionService conversion = ApplicationConversionService.getSharedInstance();

	@Test
	void everyPropertyIsInTheGuideWithItsDefault() throws Exception {
		Map<String, MetadataProperty> metadata = metadata();
		assertThat(metadata).as("zklock properties in the configuration metadata").isNotEmpty();
		Map<String, String> documented = rows(section("## Properties"), "zklock.");
		List<String> problems = new ArrayList<>();
		metadata.keySet().stream()
			.filter((name) -> !documented.containsKey(name))
			.forEach((name) -> problems.add(name + " is missing from the table"));
		documented.keySet().stream()
			.filter((name) -> !metadata.containsKey(name))
			.forEach((name) -> problems.add(name + " is in the table but not in the configuration metadata"));
		for (MetadataProperty property : metadata.values()) {
			String cell = documented.get(property.name());
			if (cell != null) {
				String problem = property.checkDefault(cell);
				if (problem != null) {
					problems.add(property.name() + ": " + problem);
				}
			}
		}
		assertThat(problems).as("differences between docs/guide.md and the configuration metadata").isEmpty();
	}

	@Test
	void everyAnnotationAttributeIsInTheGuideWithItsDefault() throws Exception {
		assertAttributes(ZkLocked.class, section("### `@ZkLocked` attributes"));
		assertAttributes(ZkLeader.class, section("### `@ZkLeader` attributes"));
	}

	private static void assertAttributes(Class<? extends Annotation> annotation, String section) {
		Map<String, String> documented = rows(section, "");
		Map<String, String> declared = new LinkedHashMap<>();
		for (Method attribute : annotation.getDeclaredMethods()) {
			Object value = attribute.getDefaultValue();
			declared.put(attribute.getName(), "".equals(value) ? "\"\"" : String.valueOf(value));
		}
		Map<String, String> documentedDefaults = new LinkedHashMap<>();
		documented.forEach((name, cell) -> documentedDefaults.put(name, literal(cell)));
		assertThat(documentedDefaults).as("attributes of @" + annotation.getSimpleName() + " in docs/guide.md")
			.containsExactlyInAnyOrderEntriesOf(declared);
	}

	/**
	 * Return the first cell of each table row of the section whose name starts with the prefix,
	 * mapped to the second cell.
	 */
	private static Map<String, String> rows(String section, String prefix) {
		Map<String, String> rows = new LinkedHashMap<>();
		for (String line : section.split("\n")) {
			Matcher row = ROW.matcher(line);
			if (row.find() && row.group(1).startsWith(prefix)) {
				assertThat(rows.put(row.group(1), row.group(2).trim())).as("row of " + row.group(1)).isNull();
			}
		}
		return rows;
	}

	private static @Nullable String literal(String cell) {
		Matcher literal = LITERAL.matcher(cell);
		return literal.find() ? literal.group(1) : null;
	}

	private static String section(String heading) throws IOException {
		String guide = Files.readString(guide());
		int start = guide.indexOf("\n" + heading + "\n");
		assertThat(start).as("section '" + heading + "' in docs/guide.md").isNotNegative();
		int level = heading.indexOf(' ');
		int end = guide.length();
		for (int i = 1; i <= level; i++) {
			int next = guide.indexOf("\n" + "#".repeat(i) + " ", start + heading.length() + 1);
			if (next >= 0) {
				end = Math.min(end, next);
			}
		}
		return guide.substring(start, end);
	}

	private static Path guide() {
		for (Path candidate : List.of(Path.of("..", "docs", "guide.md"), Path.of("docs", "guide.md"))) {
			if (Files.isRegularFile(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("docs/guide.md not found from " + Path.of("").toAbsolutePath());
	}

	private static Map<String, MetadataProperty> metadata() throws IOException {
		JsonMapper json = JsonMapper.builder().build();
		Map<String, MetadataProperty> properties = new LinkedHashMap<>();
		for (URL url : Collections.list(GuideTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				for (JsonNode property : json.readTree(in).path("properties")) {
					String name = property.path("name").asString();
					if (name.startsWith("zklock.") && property.path("deprecation").isMissingNode()) {
						properties.put(name, new MetadataProperty(name, property.path("type").asString(),
								property.path("sourceType").asString(), property.get("defaultValue")));
					}
				}
			}
		}
		return properties;
	}

	/**
	 * A property as the configuration metadata describes it.
	 */
	private record MetadataProperty(String name, String type, String sourceType, @Nullable JsonNode defaultValue) {

		/**
		 * Return what is wrong with the default documented in the cell, or {@code null}.
		 */
		@Nullable String checkDefault(String cell) {
			Actual actual = actual();
			if (cell.startsWith("none")) {
				if (this.defaultValue != null) {
					return "documented without a default, but the metadata says " + this.defaultValue;
				}
				if (actual.known() && !isEmpty(actual.value())) {
					return "documented without a default, but it defaults to " + actual.value();
				}
				return null;
			}
			String literal = literal(cell);
			if (literal == null) {
				return "the default cell '" + cell + "' is neither 'none...' nor a `literal`";
			}
			Object documented;
			try {
				documented = conversion.convert(literal, actual.type());
			}
			catch (RuntimeException ex) {
				return "the documented default `" + literal + "` is not a " + actual.type().getSimpleName();
			}
			if (actual.known() && !Objects.equals(documented, actual.value())) {
				return "documented default `" + literal + "`, but it defaults to " + actual.value();
			}
			if (this.defaultValue != null && !Objects.equals(documented,
					conversion.convert(this.defaultValue.asString(), actual.type()))) {
				return "documented default `" + literal + "`, but the metadata says " + this.defaultValue;
			}
			if (!actual.known() && this.defaultValue == null) {
				return "documented default `" + literal + "` cannot be checked: no metadata default and no "
						+ "properties instance";
			}
			return null;
		}

		/**
		 * Read the default from a new instance of the properties class, when it has a no-argument
		 * constructor; otherwise only the metadata's type is known.
		 */
		private Actual actual() {
			String property = camelCase(this.name.substring(this.name.lastIndexOf('.') + 1));
			try {
				Class<?> source = ClassUtils.forName(this.sourceType, GuideTests.class.getClassLoader());
				Constructor<?> constructor = source.getDeclaredConstructor();
				constructor.setAccessible(true);
				BeanWrapper wrapper = new BeanWrapperImpl(constructor.newInstance());
				Class<?> type = wrapper.getPropertyType(property);
				if (type != null) {
					return new Actual(ClassUtils.resolvePrimitiveIfNecessary(type), wrapper.getPropertyValue(property),
							true);
				}
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				// Not a JavaBean with a no-argument constructor: fall back to the metadata.
			}
			String rawType = this.type.contains("<") ? this.type.substring(0, this.type.indexOf('<')) : this.type;
			return new Actual(ClassUtils.resolveClassName(rawType, GuideTests.class.getClassLoader()), null, false);
		}

		private static boolean isEmpty(@Nullable Object value) {
			return value == null || (value instanceof Collection<?> collection && collection.isEmpty())
					|| (value instanceof Map<?, ?> map && map.isEmpty())
					|| (value.getClass().isArray() && java.lang.reflect.Array.getLength(value) == 0);
		}

		private static String camelCase(String kebab) {
			StringBuilder camel = new StringBuilder();
			boolean upper = false;
			for (char c : kebab.toCharArray()) {
				if (c == '-') {
					upper = true;
				}
				else {
					camel.append(upper ? Character.toUpperCase(c) : c);
					upper = false;
				}
			}
			return camel.toString();
		}

	}

	private record Actual(Class<?> type, @Nullable Object value, boolean known) {

	}

}
