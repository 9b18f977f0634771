package dev.zklock.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The machine and JDK a run happens on, as far as Linux and the JVM tell.
 *
 * @param cpu the CPU model
 * @param processors the processors available to the JVM
 * @param memory the total memory
 * @param os the operating system
 * @param jdk the JDK running the benchmarks
 */
public record Machine(String cpu, int processors, String memory, String os, String jdk) {

	/**
	 * Describe this machine.
	 * @return the description
	 */
	public static Machine describe() {
		String cpu = lineValue("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch"));
		String memory = lineValue("/proc/meminfo", "MemTotal").map(Machine::kibToGib).orElse("unknown");
		String os = lineValue("/etc/os-release", "PRETTY_NAME").map((name) -> name.replace("\"", ""))
			.orElse(System.getProperty("os.name")) + ", kernel " + System.getProperty("os.version");
		String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
				+ System.getProperty("java.vm.vendor") + ")";
		return new Machine(cpu, Runtime.getRuntime().availableProcessors(), memory, os, jdk);
	}

	private static Optional<String> lineValue(String file, String name) {
		try {
			List<String> lines = Files.readAllLines(Path.of(file));
			return lines.stream()
				.filter((line) -> line.startsWith(name))
				.map((line) -> line.substring(line.indexOf(line.contains(":") ? ':' : '=') + 1).trim())
				.findFirst();
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	private static String kibToGib(String value) {
		String kib = value.replaceAll("[^0-9]", "");
		return kib.isEmpty() ? value : String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kib) / 1024.0 / 1024.0);
	}

}
