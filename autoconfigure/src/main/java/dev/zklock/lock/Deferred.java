package dev.zklock.lock;

import java.util.List;

/**
 * The work decided under a lock and run once it is released, taken from its list: the list
 * itself as the uncontended call has it (one request or completion), without the copy.
 */
final class Deferred {

	private Deferred() {
	}

	/**
	 * Take everything in the list, which the caller's lock guards, leaving it empty.
	 * @param work the work, in order; not empty
	 * @return the work to run, in the same order, after the lock is released
	 */
	static Runnable take(List<Runnable> work) {
		if (work.size() == 1) {
			return work.remove(0);
		}
		Runnable[] all = work.toArray(new Runnable[0]);
		work.clear();
		return () -> {
			for (Runnable each : all) {
				each.run();
			}
		};
	}

}
