package dev.zklock.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Checks on operating system processes for tests.
 */
final class Processes {

	private Processes() {
	}

	/**
	 * Return whether the given process is gone: ended, or a zombie that no one reaped yet.
	 */
	static boolean isGone(long pid) {
		Optional<ProcessHandle> handle = ProcessHandle.of(pid);
		return handle.isEmpty() || !handle.get().isAlive() || ProcessSignals.state(pid).orElse(' ') == 'Z';
	}

	/**
	 * Return the full command line of the given process from {@code /proc}, arguments separated
	 * by spaces.
	 */
	static String commandLine(long pid) throws IOException {
		return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8)
			.replace('\0', ' ');
	}

	/**
	 * Kill the given process if it is still a Java process, so that a failing test leaves nothing
	 * behind.
	 */
	static void killIfJava(long pid) {
		ProcessHandle.of(pid)
			.filter((handle) -> handle.info().command().map((command) -> command.endsWith("java")).orElse(false))
			.ifPresent(ProcessHandle::destroyForcibly);
	}

}
