package dev.zklock.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

import dev.zklock.leader.RaceThreads;

/**
 * The handshake of {@link RequestDeadlines}, explored by Fray's controlled scheduler over the
 * real class and its real interrupting thread: a thread waits for a reply as ZooKeeper's client
 * waits for a synchronous request's (in {@link Object#wait()}), the reply comes from another
 * thread, and the clock passes the wait's deadline at any moment. Whatever the order, the wait
 * ends with the reply or with the deadline's interrupt, {@link RequestDeadlines#end} says which,
 * and no interrupt of the deadline is left on the thread once the wait has ended.
 */
@ExtendWith(FrayTestExtension.class)
class RequestDeadlinesFrayTests {

	private static final int ITERATIONS = 2000;

	@ConcurrencyTest(iterations = ITERATIONS)
	void aWaitEndsWithItsReplyOrItsDeadlineAndNoInterruptOutlivesIt() throws Exception {
		AtomicLong clock = new AtomicLong();
		RequestDeadlines deadlines = new RequestDeadlines("request deadlines", clock::get);
		Reply reply = new Reply();
		CountDownLatch waitEnded = new CountDownLatch(1);
		CountDownLatch interrupterStopped = new CountDownLatch(1);
		boolean[] seen = new boolean[3];
		Thread waiter = RaceThreads.start(() -> {
			RequestDeadlines.Wait wait = deadlines.begin(10);
			boolean interrupted = !reply.await();
			boolean late = deadlines.end(wait);
			seen[0] = interrupted;
			seen[1] = late;
			waitEnded.countDown();
			awaitUninterruptibly(interrupterStopped);
			seen[2] = Thread.interrupted();
		});
		Thread replier = RaceThreads.start(reply::arrive);
		Thread time = RaceThreads.start(() -> clock.set(20));
		RaceThreads.join(replier, time);
		// Once the wait has ended, whichever way, the interrupting thread stops: an interrupt it
		// was still to send would have landed by then.
		awaitUninterruptibly(waitEnded);
		Thread interrupter = deadlines.stop();
		if (interrupter != null) {
			RaceThreads.join(interrupter);
		}
		interrupterStopped.countDown();
		RaceThreads.join(waiter);
		RaceThreads.check(!seen[0] || seen[1], "the wait was interrupted, and end() did not say it was the deadline");
		RaceThreads.check(!seen[2], "an interrupt of the deadline was left on the thread after its wait ended");
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A reply as ZooKeeper's client hands it to a thread waiting on a synchronous request.
	 */
	private static final class Reply {

		private boolean arrived;

		synchronized void arrive() {
			this.arrived = true;
			notifyAll();
		}

		/**
		 * @return {@code false} if the wait was interrupted
		 */
		synchronized boolean await() {
			try {
				while (!this.arrived) {
					wait();
				}
				return true;
			}
			catch (InterruptedException ex) {
				return false;
			}
		}

	}

}
