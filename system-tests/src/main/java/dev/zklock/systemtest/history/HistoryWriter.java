package dev.zklock.systemtest.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends the operations of one application process to its history file, one line each, written
 * at once: a process killed with {@code kill -9} loses at most the line it was writing. A
 * restarted process may append to the same file; a line cut short by the kill stays on its own
 * line, which {@link HistoryReader} counts as damaged. Thread-safe.
 */
public final class HistoryWriter implements AutoCloseable {

	private final Path file;

	private final FileChannel channel;

	private HistoryWriter(Path file, FileChannel channel) {
		this.file = file;
		this.channel = channel;
	}

	/**
	 * Open a history file for appending, creating it and its folder if needed.
	 * @param file the file, named {@code <something>.jsonl} for {@link HistoryReader#read(Path)}
	 * @return the writer
	 */
	public static HistoryWriter open(Path file) {
		try {
			Path folder = file.toAbsolutePath().getParent();
			if (folder != null) {
				Files.createDirectories(folder);
			}
			boolean cutLine = endsInCutLine(file);
			FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
					StandardOpenOption.APPEND);
			HistoryWriter writer = new HistoryWriter(file, channel);
			if (cutLine) {
				writer.write("\n");
			}
			return writer;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not open history file " + file, ex);
		}
	}

	/**
	 * Append an operation.
	 * @param operation the operation
	 */
	public synchronized void append(Operation operation) {
		write(HistoryFormat.write(operation) + "\n");
	}

	@Override
	public synchronized void close() {
		try {
			this.channel.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not close history file " + this.file, ex);
		}
	}

	private static boolean endsInCutLine(Path file) throws IOException {
		if (!Files.exists(file)) {
			return false;
		}
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = channel.size();
			if (size == 0) {
				return false;
			}
			ByteBuffer last = ByteBuffer.allocate(1);
			channel.read(last, size - 1);
			return last.get(0) != '\n';
		}
	}

	private void write(String text) {
		ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
		try {
			while (bytes.hasRemaining()) {
				this.channel.write(bytes);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not append to history file " + this.file, ex);
		}
	}

}
