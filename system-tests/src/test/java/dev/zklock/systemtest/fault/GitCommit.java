package dev.zklock.systemtest.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The commit a run ran on, as {@code git describe --always --dirty} names it (a {@code -dirty}
 * suffix when the work tree had changes), for the run's summary.
 */
final class GitCommit {

	private GitCommit() {
	}

	/**
	 * Describe the commit of the current directory's work tree.
	 * @return its description, or {@code unknown (<reason>)}
	 */
	static String describe() {
		try {
			Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
			String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (!git.waitFor(10, TimeUnit.SECONDS)) {
				git.destroyForcibly();
				return "unknown (git describe did not end)";
			}
			return (git.exitValue() == 0) ? output : "unknown (" + output + ")";
		}
		catch (IOException ex) {
			return "unknown (" + ex.getMessage() + ")";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "unknown (interrupted)";
		}
	}

}
