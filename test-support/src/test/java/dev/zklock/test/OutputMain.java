package dev.zklock.test;

import java.util.Arrays;

/**
 * Prints its arguments to standard output, and a system property and its temporary folder to
 * standard error, then exits with the code given as first argument.
 */
final class OutputMain {

	private OutputMain() {
	}

	public static void main(String[] args) {
		System.out.println("out: " + String.join(" ", Arrays.copyOfRange(args, 1, args.length)));
		System.err.println("err: " + System.getProperty("zklock.test.greeting"));
		System.err.println("tmp: " + System.getProperty("java.io.tmpdir"));
		System.exit(Integer.parseInt(args[0]));
	}

}
