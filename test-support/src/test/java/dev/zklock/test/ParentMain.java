package dev.zklock.test;

import java.time.Duration;

/**
 * Starts a {@link TickingMain} child with {@link JavaProcess}, pauses it when the first argument
 * is {@code pause}, prints {@code child pid <pid>} and waits for at most a minute.
 */
final class ParentMain {

	private ParentMain() {
	}

	public static void main(String[] args) throws InterruptedException {
		try (JavaProcess child = JavaProcess.builder(TickingMain.class).start()) {
			child.awaitOutput("^ready$", Duration.ofSeconds(30));
			if (args.length > 0 && args[0].equals("pause")) {
				child.pause();
			}
			System.out.println("child pid " + child.pid());
			Thread.sleep(60_000);
		}
	}

}
