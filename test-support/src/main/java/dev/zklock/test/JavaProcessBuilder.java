package dev.zklock.test;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Describes a {@link JavaProcess} to start: main class, arguments, system properties, JVM
 * options, classpath and output file. The process keeps its temporary files in this JVM's
 * temporary folder ({@code java.io.tmpdir}), which the build points into its own output folder,
 * unless a system property or JVM option names another.
 */
public final class JavaProcessBuilder {

	private final String mainClass;

	private final List<String> args = new ArrayList<>();

	private final Map<String, String> systemProperties = new LinkedHashMap<>();

	private final List<String> jvmArgs = new ArrayList<>();

	private final List<String> launcher = new ArrayList<>();

	private @Nullable String classpath;

	private @Nullable Path output;

	private @Nullable String name;

	JavaProcessBuilder(String mainClass) {
		this.mainClass = mainClass;
	}

	/**
	 * Add arguments for the main method.
	 * @param args the arguments
	 * @return this builder
	 */
	public JavaProcessBuilder args(String... args) {
		this.args.addAll(Arrays.asList(args));
		return this;
	}

	/**
	 * Set a system property ({@code -Dname=value}); it wins over one given in
	 * {@link #jvmArgs(String...)}.
	 * @param name the property name
	 * @param value the value
	 * @return this builder
	 */
	public JavaProcessBuilder systemProperty(String name, String value) {
		this.systemProperties.put(name, value);
		return this;
	}

	/**
	 * Add JVM options, such as {@code -Xmx256m}.
	 * @param jvmArgs the options
	 * @return this builder
	 */
	public JavaProcessBuilder jvmArgs(String... jvmArgs) {
		this.jvmArgs.addAll(Arrays.asList(jvmArgs));
		return this;
	}

	/**
	 * Use the given classpath instead of this JVM's. The location of {@link ParentWatchdog} is
	 * added to it.
	 * @param classpath the classpath, entries separated by {@link File#pathSeparator}
	 * @return this builder
	 */
	public JavaProcessBuilder classpath(String classpath) {
		this.classpath = classpath;
		return this;
	}

	/**
	 * Write standard output and error to the given file, appending to what it holds; by default
	 * they go to a new file in {@code target/zklock-test}, deleted when this JVM exits.
	 * @param output the file
	 * @return this builder
	 */
	public JavaProcessBuilder output(Path output) {
		this.output = output;
		return this;
	}

	/**
	 * Name the process in messages; by default the simple name of the main class.
	 * @param name the name
	 * @return this builder
	 */
	public JavaProcessBuilder name(String name) {
		this.name = name;
		return this;
	}

	/**
	 * Run the JVM through a launcher that executes the command it is given, for example
	 * {@code ip netns exec <namespace>} (see {@link IsolatedNetwork#launcher(int)}). The launcher
	 * must replace itself with the JVM, so that the process is the JVM.
	 * @param launcher the launcher's command, put before the JVM's
	 * @return this builder
	 */
	public JavaProcessBuilder launcher(List<String> launcher) {
		this.launcher.addAll(launcher);
		return this;
	}

	/**
	 * Start the process.
	 * @return the running process
	 * @throws IllegalStateException if it could not be started
	 */
	public JavaProcess start() {
		String name = (this.name != null) ? this.name : this.mainClass.substring(this.mainClass.lastIndexOf('.') + 1);
		try {
			Path output = (this.output != null) ? this.output : temporaryOutput(name);
			Files.createDirectories(output.toAbsolutePath().getParent());
			long outputStart = Files.exists(output) ? Files.size(output) : 0;
			ProcessBuilder builder = new ProcessBuilder(command()).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
			// Standard input stays a pipe that this JVM holds open: see ParentWatchdog.
			return new JavaProcess(name, ChildProcesses.start(builder), output, outputStart);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start " + name, ex);
		}
	}

	List<String> command() {
		List<String> command = new ArrayList<>(this.launcher);
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// Before the options given, so that one of them naming another folder wins.
		command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
		command.addAll(this.jvmArgs);
		this.systemProperties.forEach((name, value) -> command.add("-D" + name + "=" + value));
		command.add("-cp");
		command.add(classpath());
		command.add(ParentWatchdog.class.getName());
		command.add(this.mainClass);
		command.addAll(this.args);
		return command;
	}

	private String classpath() {
		if (this.classpath == null) {
			return System.getProperty("java.class.path");
		}
		String watchdogLocation = watchdogLocation();
		return (watchdogLocation != null) ? this.classpath + File.pathSeparator + watchdogLocation : this.classpath;
	}

	private static @Nullable String watchdogLocation() {
		CodeSource source = ParentWatchdog.class.getProtectionDomain().getCodeSource();
		if (source == null || source.getLocation() == null) {
			return null;
		}
		try {
			return Path.of(source.getLocation().toURI()).toString();
		}
		catch (URISyntaxException | IllegalArgumentException ex) {
			return null;
		}
	}

	private static Path temporaryOutput(String name) {
		Path output = ScratchFolder.newFile("zklock-" + name.replaceAll("[^A-Za-z0-9_.-]", "_") + "-", ".log");
		output.toFile().deleteOnExit();
		return output;
	}

}
