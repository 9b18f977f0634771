package dev.zklock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A Java main class running in a separate JVM, started with this JVM's {@code java} and, by
 * default, its classpath. Its standard output and error go, merged, to a file.
 * <p>
 * The process never outlives this JVM, not even when this JVM is killed with {@code SIGKILL}
 * (see {@link ParentWatchdog}); {@link #close()} kills it.
 *
 * <pre class="code">
 * try (JavaProcess app = JavaProcess.builder(OrderApplication.class)
 *         .systemProperty("zklock.connect-string", ensemble.connectString())
 *         .start()) {
 *     app.awaitOutput("Started OrderApplication", Duration.ofSeconds(30));
 *     app.pause();
 *     ...
 * }
 * </pre>
 */
public final class JavaProcess implements AutoCloseable {

	private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

	private static final int TAIL_LINES = 40;

	private final String name;

	private final Process process;

	private final Path output;

	private final long outputStart;

	private volatile boolean paused;

	JavaProcess(String name, Process process, Path output, long outputStart) {
		this.name = name;
		this.process = process;
		this.output = output;
		this.outputStart = outputStart;
	}

	/**
	 * Prepare to run the given main class.
	 * @param mainClass the fully qualified name of a class with a {@code public static void
	 * main(String[])} method
	 * @return a builder
	 */
	public static JavaProcessBuilder builder(String mainClass) {
		return new JavaProcessBuilder(mainClass);
	}

	/**
	 * Prepare to run the given main class.
	 * @param mainClass a class with a {@code public static void main(String[])} method
	 * @return a builder
	 */
	public static JavaProcessBuilder builder(Class<?> mainClass) {
		return new JavaProcessBuilder(mainClass.getName());
	}

	/**
	 * Return the name given to this process, used in messages.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the operating system's id of this process.
	 * @return the pid
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * Return whether this process has not ended yet; a paused process is alive.
	 * @return whether the process is alive
	 */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Kill this process with {@code SIGKILL}, as a crash would, and wait until it is gone.
	 */
	public void kill() {
		this.process.destroyForcibly();
		awaitExit(EXIT_TIMEOUT, "after SIGKILL");
		this.paused = false;
	}

	/**
	 * Ask this process to end with {@code SIGTERM}, which runs its shutdown hooks, and kill it if
	 * it is still alive after the given time. A paused process is resumed to receive the signal.
	 * @param timeout how long to wait before killing it
	 */
	public void stop(Duration timeout) {
		if (!isAlive()) {
			return;
		}
		// Not Process.destroy(), which would also close standard input: ParentWatchdog would
		// then halt the JVM while its shutdown hooks run.
		this.process.toHandle().destroy();
		if (this.paused) {
			resume();
		}
		if (!waitQuietly(timeout)) {
			kill();
		}
	}

	/**
	 * Stop this process with {@code SIGSTOP}: it keeps its sockets and memory but runs no code,
	 * as in a long garbage collection pause or a frozen virtual machine. Returns once the
	 * kernel reports it stopped.
	 */
	public void pause() {
		ProcessSignals.pause(pid());
		this.paused = true;
	}

	/**
	 * Continue this process after {@link #pause()} with {@code SIGCONT}.
	 */
	public void resume() {
		ProcessSignals.resume(pid());
		this.paused = false;
	}

	/**
	 * Return whether this process is paused by {@link #pause()}.
	 * @return whether it is paused
	 */
	public boolean isPaused() {
		return this.paused && isAlive();
	}

	/**
	 * Return the file that receives this process's standard output and error.
	 * @return the output file
	 */
	public Path output() {
		return this.output;
	}

	/**
	 * Return what this process has written to its standard output and error so far.
	 * @return the output
	 */
	public String outputText() {
		try (SeekableByteChannel channel = Files.newByteChannel(this.output)) {
			long size = channel.size();
			if (size <= this.outputStart) {
				return "";
			}
			ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size - this.outputStart));
			channel.position(this.outputStart);
			while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
				// Read up to the size seen above.
			}
			return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the output of " + this.name, ex);
		}
	}

	/**
	 * Wait until the output of this process contains a match of the given regular expression
	 * ({@code ^} and {@code $} match at line ends).
	 * @param regex the regular expression to find
	 * @param timeout how long to wait
	 * @throws IllegalStateException if the process ends or the time passes first; the message
	 * ends with the last lines of the output
	 */
	public void awaitOutput(String regex, Duration timeout) {
		Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			boolean alive = isAlive();
			String text = outputText();
			if (pattern.matcher(text).find()) {
				return;
			}
			if (!alive) {
				throw new IllegalStateException(this.name + " exited with code " + this.process.exitValue()
						+ " without printing /" + regex + "/" + tail(text));
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						this.name + " did not print /" + regex + "/ within " + timeout + tail(text));
			}
			sleep(50);
		}
	}

	/**
	 * Wait until this process ends.
	 * @param timeout how long to wait
	 * @return its exit code: {@code 128 + n} when a signal {@code n} ended it, for example 137
	 * for {@code SIGKILL} and 143 for {@code SIGTERM}
	 * @throws IllegalStateException if it is still alive after the given time
	 */
	public int waitFor(Duration timeout) {
		awaitExit(timeout, "");
		return this.process.exitValue();
	}

	/**
	 * Kill this process if it is still alive.
	 */
	@Override
	public void close() {
		if (isAlive()) {
			kill();
		}
	}

	@Override
	public String toString() {
		return this.name + " (pid " + pid() + ")";
	}

	private void awaitExit(Duration timeout, String when) {
		if (!waitQuietly(timeout)) {
			throw new IllegalStateException(
					this.name + " is still alive " + when + " after " + timeout + tail(outputText()));
		}
	}

	private boolean waitQuietly(Duration timeout) {
		try {
			return this.process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for " + this.name, ex);
		}
	}

	static String tail(String text) {
		String[] lines = text.split("\n", -1);
		int from = Math.max(0, lines.length - TAIL_LINES);
		return "; output ends with:\n" + String.join("\n", Arrays.copyOfRange(lines, from, lines.length));
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting", ex);
		}
	}

}
