package dev.zklock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the test helpers keep their files: {@code zklock-test} in the build's output folder
 * ({@code target/} of Maven, {@code build/} of Gradle) of the working folder, so that a test run
 * leaves nothing in the machine's temporary folder; the temporary folder only when the tests run
 * outside a build. The system property {@value #PROPERTY} names another folder.
 */
final class ScratchFolder {

	/** System property naming the folder to use instead. */
	static final String PROPERTY = "zklock.test.scratch-dir";

	private ScratchFolder() {
	}

	/**
	 * Return the folder, created if needed.
	 * @return the scratch folder
	 */
	static Path root() {
		try {
			return Files.createDirectories(location());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create the folder for test files", ex);
		}
	}

	/**
	 * Create a new, empty folder in the scratch folder.
	 * @param prefix the start of its name
	 * @return the new folder
	 */
	static Path newFolder(String prefix) {
		try {
			return Files.createTempDirectory(root(), prefix);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a folder for test files", ex);
		}
	}

	/**
	 * Create a new, empty file in the scratch folder.
	 * @param prefix the start of its name
	 * @param suffix the end of its name
	 * @return the new file
	 */
	static Path newFile(String prefix, String suffix) {
		try {
			return Files.createTempFile(root(), prefix, suffix);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a file for test output", ex);
		}
	}

	/**
	 * Delete a folder and everything in it, as far as possible.
	 * @param folder the folder
	 */
	static void deleteQuietly(Path folder) {
		if (!Files.exists(folder)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(folder)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException | UncheckedIOException ex) {
			// Best effort: what is left stays in the build's own folder.
		}
	}

	private static Path location() {
		String configured = System.getProperty(PROPERTY);
		if (configured != null && !configured.isBlank()) {
			return Path.of(configured);
		}
		for (String output : new String[] { "target", "build" }) {
			if (Files.isDirectory(Path.of(output))) {
				return Path.of(output, "zklock-test").toAbsolutePath();
			}
		}
		return Path.of(System.getProperty("java.io.tmpdir"), "zklock-test");
	}

}
