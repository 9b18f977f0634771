package dev.zklock.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Starts the child processes of this JVM so that none of them outlives it.
 * <p>
 * Three mechanisms work together: a shutdown hook kills the children that are still alive when
 * this JVM exits normally or on {@code SIGTERM}; each child runs {@link ParentWatchdog}, which
 * halts it when this JVM is gone however it died; and on Linux, where {@code setpriv} supports it,
 * each child also gets a parent-death signal ({@code SIGKILL}), which works even while the child
 * is paused with {@code SIGSTOP} and cannot run its watchdog. The kernel sends that signal when the
 * thread that started the child ends, so every child is started from one thread that lives as
 * long as this JVM.
 */
final class ChildProcesses {

	private static final Set<Process> live = ConcurrentHashMap.newKeySet();

	private static final ExecutorService launcher = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "zklock-process-launcher");
		thread.setDaemon(true);
		return thread;
	});

	private static final List<String> deathSignalPrefix = deathSignalPrefix();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::killAll, "zklock-child-process-killer"));
	}

	private ChildProcesses() {
	}

	/**
	 * Start the given process as a child that dies with this JVM.
	 * @param builder the process to start; its command should run {@link ParentWatchdog}
	 * @return the started process
	 * @throws IOException if the process could not be started
	 */
	static Process start(ProcessBuilder builder) throws IOException {
		List<String> command = new ArrayList<>(deathSignalPrefix);
		command.addAll(builder.command());
		builder.command(command);
		Future<Process> started = launcher.submit(() -> register(builder.start()));
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return started.get();
				}
				catch (InterruptedException ex) {
					// Starting takes milliseconds; the process must not be lost.
					interrupted = true;
				}
			}
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof IOException io) {
				throw io;
			}
			throw new IllegalStateException("Could not start " + command, ex.getCause());
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static Process register(Process process) {
		live.add(process);
		process.onExit().thenRun(() -> live.remove(process));
		return process;
	}

	private static void killAll() {
		for (Process process : live) {
			process.destroyForcibly();
		}
	}

	private static List<String> deathSignalPrefix() {
		if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
			return List.of();
		}
		for (String candidate : List.of("/usr/bin/setpriv", "/bin/setpriv")) {
			Path setpriv = Path.of(candidate);
			if (Files.isExecutable(setpriv) && supportsDeathSignal(setpriv)) {
				return List.of(candidate, "--pdeathsig", "KILL");
			}
		}
		return List.of();
	}

	private static boolean supportsDeathSignal(Path setpriv) {
		try {
			Process probe = new ProcessBuilder(setpriv.toString(), "--pdeathsig", "KILL", "true")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!probe.waitFor(10, TimeUnit.SECONDS)) {
				probe.destroyForcibly();
				return false;
			}
			return probe.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
