package dev.zklock.test;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Starts a {@link ZooKeeperEnsemble} of three servers, pauses server 3, prints
 * {@code server pids <pid1> <pid2> <pid3>} and waits for at most a minute.
 */
final class EnsembleHolderMain {

	private EnsembleHolderMain() {
	}

	public static void main(String[] args) throws InterruptedException {
		try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().tickTime(200).start()) {
			ensemble.pause(3);
			String pids = IntStream.rangeClosed(1, ensemble.size())
				.mapToObj((id) -> Long.toString(ensemble.pid(id)))
				.collect(Collectors.joining(" "));
			System.out.println("server pids " + pids);
			Thread.sleep(60_000);
		}
	}

}
