package dev.zklock.test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * The main class that {@link JavaProcess} really runs: it halts the JVM as soon as the parent
 * process is gone, then runs the application's main class.
 * <p>
 * The parent keeps the write end of this process's standard input open for as long as it lives,
 * and never writes to it. The operating system closes it when the parent dies, however it dies
 * ({@code kill -9} included), so the end of standard input means "the parent is gone". The
 * application must therefore not read standard input itself.
 * <p>
 * Usage: {@code java -cp ... dev.zklock.test.ParentWatchdog <main class> [arguments...]}.
 */
public final class ParentWatchdog {

	/**
	 * The exit code of a process halted because its parent is gone.
	 */
	public static final int PARENT_GONE_EXIT_CODE = 86;

	private ParentWatchdog() {
	}

	/**
	 * Watch the parent and run the given main class with the remaining arguments.
	 * @param args the main class, then its arguments
	 * @throws Throwable whatever the application's main method throws
	 */
	public static void main(String[] args) throws Throwable {
		if (args.length == 0) {
			System.err.println("Usage: " + ParentWatchdog.class.getName() + " <main class> [arguments...]");
			System.exit(2);
		}
		Thread watchdog = new Thread(ParentWatchdog::haltWhenParentIsGone, "zklock-parent-watchdog");
		watchdog.setDaemon(true);
		watchdog.start();
		Method main = Class.forName(args[0]).getMethod("main", String[].class);
		if (!Modifier.isStatic(main.getModifiers())) {
			throw new IllegalArgumentException(args[0] + ".main(String[]) is not static");
		}
		// As the java launcher does, run the main method of a class that is not public too.
		main.setAccessible(true);
		try {
			main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private static void haltWhenParentIsGone() {
		try {
			InputStream in = System.in;
			byte[] buffer = new byte[64];
			while (in.read(buffer) != -1) {
				// The parent never writes; anything read is ignored.
			}
		}
		catch (IOException ex) {
			// A broken pipe means the same as the end of input.
		}
		System.err.println("Parent process is gone: halting");
		System.err.flush();
		Runtime.getRuntime().halt(PARENT_GONE_EXIT_CODE);
	}

}
