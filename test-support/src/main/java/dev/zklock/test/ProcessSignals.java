package dev.zklock.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Sends signals that {@link Process} cannot send ({@code SIGSTOP}, {@code SIGCONT}) with the
 * {@code kill} command, and reads a process's scheduling state on Linux.
 */
final class ProcessSignals {

	private static final Duration STATE_CHANGE_TIMEOUT = Duration.ofSeconds(10);

	private ProcessSignals() {
	}

	/**
	 * Stop the given process with {@code SIGSTOP} and wait until the kernel reports it stopped.
	 * @param pid the process
	 */
	static void pause(long pid) {
		send(pid, "STOP");
		awaitState(pid, true);
	}

	/**
	 * Continue the given process with {@code SIGCONT} and wait until it is no longer stopped.
	 * @param pid the process
	 */
	static void resume(long pid) {
		send(pid, "CONT");
		awaitState(pid, false);
	}

	/**
	 * Return whether the kernel reports the given process stopped.
	 * @param pid the process
	 * @return the answer, or empty without {@code /proc} or when the process is gone
	 */
	static Optional<Boolean> isStopped(long pid) {
		return state(pid).map((state) -> state == 'T');
	}

	/**
	 * Return the state letter of the given process in {@code /proc/<pid>/stat}: {@code R},
	 * {@code S}, {@code T} (stopped), {@code Z} (zombie), and so on.
	 * @param pid the process
	 * @return the state, or empty without {@code /proc} or when the process is gone
	 */
	static Optional<Character> state(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
			int afterName = stat.lastIndexOf(')');
			return (afterName < 0 || afterName + 2 >= stat.length()) ? Optional.empty()
					: Optional.of(stat.charAt(afterName + 2));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	private static void send(long pid, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
				.start();
			if (!kill.waitFor(STATE_CHANGE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				kill.destroyForcibly();
				throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish");
			}
			if (kill.exitValue() != 0) {
				String reply = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
				throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + reply);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not run kill -" + signal + " " + pid, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + pid, ex);
		}
	}

	private static void awaitState(long pid, boolean stopped) {
		long deadline = System.nanoTime() + STATE_CHANGE_TIMEOUT.toNanos();
		while (isStopped(pid).map((actual) -> actual != stopped).orElse(false)) {
			if (System.nanoTime() - deadline > 0) {
				String state = stopped ? "still running" : "still stopped";
				throw new IllegalStateException("Process " + pid + " is " + state
						+ " after " + STATE_CHANGE_TIMEOUT.toSeconds() + " seconds");
			}
			JavaProcess.sleep(5);
		}
	}

}
