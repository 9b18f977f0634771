package dev.zklock.systemtest.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Follows the history files of a run while the processes still write them: each
 * {@link #poll()} reads the lines completed since the last one, so a line being written is
 * never mistaken for a damaged one. Not thread-safe.
 */
public final class HistoryFollower {

	private final Path folder;

	private final Map<Path, FileState> files = new HashMap<>();

	private final List<Operation> operations = new ArrayList<>();

	private final List<String> damagedLines = new ArrayList<>();

	/**
	 * Create a follower of the {@code *.jsonl} files of a folder, those created later included.
	 * @param folder the folder the processes write their histories to
	 */
	public HistoryFollower(Path folder) {
		this.folder = folder;
	}

	/**
	 * Read the lines completed since the last poll.
	 * @return the operations they hold, in file order
	 */
	public List<Operation> poll() {
		List<Operation> read = new ArrayList<>();
		for (Path file : historyFiles()) {
			this.files.computeIfAbsent(file, (path) -> new FileState()).read(file, read, this.damagedLines);
		}
		this.operations.addAll(read);
		return read;
	}

	/**
	 * Return every operation read so far and the damaged lines.
	 * @return the history so far
	 */
	public History history() {
		return new History(this.operations, this.damagedLines);
	}

	private List<Path> historyFiles() {
		if (!Files.isDirectory(this.folder)) {
			return List.of();
		}
		try (Stream<Path> files = Files.list(this.folder)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".jsonl")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not list history folder " + this.folder, ex);
		}
	}

	/**
	 * How far one file has been read, and the start of a line not completed yet.
	 */
	private static final class FileState {

		private long position;

		private int lineNumber;

		private byte[] pending = new byte[0];

		void read(Path file, List<Operation> operations, List<String> damaged) {
			try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
				long size = channel.size();
				if (size <= this.position) {
					return;
				}
				ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(size - this.position));
				while (buffer.hasRemaining() && channel.read(buffer, this.position + buffer.position()) >= 0) {
					// Read up to the size seen above.
				}
				this.position += buffer.position();
				byte[] bytes = new byte[this.pending.length + buffer.position()];
				System.arraycopy(this.pending, 0, bytes, 0, this.pending.length);
				System.arraycopy(buffer.array(), 0, bytes, this.pending.length, buffer.position());
				int lineStart = 0;
				for (int i = 0; i < bytes.length; i++) {
					if (bytes[i] == '\n') {
						line(file, new String(bytes, lineStart, i - lineStart, StandardCharsets.UTF_8), operations,
								damaged);
						lineStart = i + 1;
					}
				}
				this.pending = Arrays.copyOfRange(bytes, lineStart, bytes.length);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not read history file " + file, ex);
			}
		}

		private void line(Path file, String line, List<Operation> operations, List<String> damaged) {
			this.lineNumber++;
			if (line.isBlank()) {
				return;
			}
			try {
				operations.add(HistoryFormat.read(line));
			}
			catch (RuntimeException ex) {
				damaged.add(file + ":" + this.lineNumber + ": " + HistoryReader.reason(ex));
			}
		}

	}

}
