package dev.zklock.test;

/**
 * Prints {@code ready}, then {@code tick <n>} every 20 milliseconds for at most a minute; prints
 * {@code shutdown hook ran} when its JVM shuts down normally.
 */
final class TickingMain {

	private TickingMain() {
	}

	public static void main(String[] args) throws InterruptedException {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
		System.out.println("ready");
		long end = System.nanoTime() + 60_000_000_000L;
		for (int tick = 1; System.nanoTime() < end; tick++) {
			System.out.println("tick " + tick);
			Thread.sleep(20);
		}
	}

}
