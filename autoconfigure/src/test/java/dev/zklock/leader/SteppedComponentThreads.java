package dev.zklock.leader;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The {@link ComponentThread component threads} of a {@link LeaderComponents}, each run by a
 * plain thread of the test instead of its executor's pooled worker: with the real executors,
 * whose workers never end and whose locks and queues the checker explores too, Lincheck's runs
 * ended in "Concurrent test has hung". Each component thread's tasks are still run one at a time
 * in the order they were handed over, on one thread, through the {@code ComponentThread}'s own
 * code ({@code submit}, {@code runOrSubmit}, {@code isCurrent}, {@code runAndWait}); only the
 * queue under it is replaced, by reflection on its field. Groups that share a component thread
 * share its runner.
 */
final class SteppedComponentThreads {

	private final List<SteppedExecutor> executors = new ArrayList<>();

	private final List<Thread> runners = new ArrayList<>();

	/**
	 * Replace the executor of every distinct component thread of the groups with a queue that a
	 * thread of the test runs from {@link #start()} to {@link #join()}.
	 */
	SteppedComponentThreads(LeaderComponents components, String... groups) {
		Map<ComponentThread, SteppedExecutor> executors = new IdentityHashMap<>();
		for (String group : groups) {
			ComponentThread thread = group(components, group).thread();
			if (!executors.containsKey(thread)) {
				SteppedExecutor executor = new SteppedExecutor();
				replaceExecutor(thread, executor);
				executors.put(thread, executor);
				this.executors.add(executor);
			}
		}
	}

	/**
	 * Start running each component thread's tasks on a thread of the test.
	 */
	void start() {
		this.runners.clear();
		this.executors.forEach((executor) -> this.runners.add(RaceThreads.start(executor::runUntilEnd)));
	}

	/**
	 * Say that no more tasks are handed over, and wait until every component thread has run
	 * all of its tasks.
	 */
	void join() {
		this.executors.forEach(SteppedExecutor::end);
		RaceThreads.join(this.runners.toArray(new Thread[0]));
	}

	@SuppressWarnings("unchecked")
	private static LeaderComponentGroup group(LeaderComponents components, String group) {
		try {
			Field groups = LeaderComponents.class.getDeclaredField("groups");
			groups.setAccessible(true);
			return ((Map<String, LeaderComponentGroup>) groups.get(components)).get(group);
		}
		catch (ReflectiveOperationException ex) {
			throw new AssertionError(ex);
		}
	}

	private static void replaceExecutor(ComponentThread thread, SteppedExecutor executor) {
		try {
			Field field = ComponentThread.class.getDeclaredField("executor");
			field.setAccessible(true);
			((ScheduledThreadPoolExecutor) field.get(thread)).shutdownNow(); // Its worker never started.
			field.set(thread, executor);
		}
		catch (ReflectiveOperationException ex) {
			throw new AssertionError(ex);
		}
	}

	/**
	 * An executor whose tasks wait in a queue until a thread of the test runs them, in order.
	 */
	private static final class SteppedExecutor extends ScheduledThreadPoolExecutor {

		private static final FutureTask<?> END = new FutureTask<>(() -> {
		}, null);

		private final Deque<FutureTask<?>> tasks = new ArrayDeque<>();

		private volatile boolean closed;

		SteppedExecutor() {
			super(1);
		}

		@Override
		public Future<?> submit(Runnable task) {
			if (this.closed) {
				throw new RejectedExecutionException("closed");
			}
			FutureTask<?> future = new FutureTask<>(task, null);
			hand(future);
			return future;
		}

		@Override
		public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
			throw new AssertionError("no delayed start in these races");
		}

		@Override
		public List<Runnable> shutdownNow() {
			this.closed = true;
			return List.of();
		}

		/**
		 * Hand over no more tasks: the runner ends once it has run those handed over before.
		 */
		void end() {
			hand(END);
		}

		private void hand(FutureTask<?> task) {
			synchronized (this.tasks) {
				this.tasks.add(task);
				this.tasks.notifyAll();
			}
		}

		/**
		 * Run the tasks as they come, waiting for each on the queue's monitor (which the
		 * checker follows; a {@code LinkedBlockingQueue}'s condition it could not instrument),
		 * until the end.
		 */
		void runUntilEnd() {
			while (true) {
				FutureTask<?> task;
				synchronized (this.tasks) {
					while (this.tasks.isEmpty()) {
						try {
							this.tasks.wait();
						}
						catch (InterruptedException ex) {
							throw new AssertionError(ex);
						}
					}
					task = this.tasks.poll();
				}
				if (task == END) {
					return;
				}
				task.run();
			}
		}

	}

}
