package dev.zklock.systemtest.history;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads and merges the history files of a run.
 */
public final class HistoryReader {

	private HistoryReader() {
	}

	/**
	 * Read every {@code *.jsonl} file of a folder.
	 * @param folder the folder the processes wrote their histories to
	 * @return the merged history
	 */
	public static History read(Path folder) {
		try (Stream<Path> files = Files.list(folder)) {
			return read(files.filter((file) -> file.getFileName().toString().endsWith(".jsonl")).sorted().toList());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not list history folder " + folder, ex);
		}
	}

	/**
	 * Read history files.
	 * @param files the files
	 * @return the merged history
	 */
	public static History read(Collection<Path> files) {
		List<Operation> operations = new ArrayList<>();
		List<String> damaged = new ArrayList<>();
		for (Path file : files) {
			read(file, operations, damaged);
		}
		return new History(operations, damaged);
	}

	private static void read(Path file, List<Operation> operations, List<String> damaged) {
		try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			int number = 0;
			String line;
			while ((line = reader.readLine()) != null) {
				number++;
				if (line.isBlank()) {
					continue;
				}
				try {
					operations.add(HistoryFormat.read(line));
				}
				catch (RuntimeException ex) {
					damaged.add(file + ":" + number + ": " + reason(ex));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read history file " + file, ex);
		}
	}

	static String reason(RuntimeException ex) {
		String message = String.valueOf(ex.getMessage()).lines().findFirst().orElse("");
		return (message.length() > 200) ? message.substring(0, 200) + "..." : message;
	}

}
