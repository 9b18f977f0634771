package dev.zklock.leader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.annotation.ZkLeaderComponent;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * An application with a leader-only component of group "feed", a stand-in for a listener
 * container, that records the interval in which it runs ({@link Intervals}) and prints
 * {@code feed started at <millis>} and {@code feed stopped at <millis>}; it takes 200 milliseconds to stop. With
 * {@code feed.fail-start=true} its start fails with an exception, with {@code error} with an
 * {@code Error}, with {@code checked} with a checked exception thrown as Kotlin code may; with
 * {@code feed.fail-stop} (same values) its stop fails once it has stopped. Run as a separate
 * process, configured by system properties, it exits by itself after two minutes.
 */
@Configuration(proxyBeanMethods = false)
@Import(LeaderTestApplication.class)
public class ComponentLeaderApplication {

	static final String GROUP = "feed";

	private static final long LIFETIME_MILLIS = 120_000;

	private static final long STOP_MILLIS = 200;

	@Bean
	@ZkLeaderComponent(GROUP)
	Feed feed(Environment environment) {
		return new Feed(environment.getProperty("spring.application.name", "?"),
				environment.getProperty("feed.fail-start", "false"), environment.getProperty("feed.fail-stop", "false"));
	}

	/**
	 * The phase of the feed: below that of the elections, so that the context would stop the
	 * elections first if zklock did not stop the feed before.
	 */
	static int phase() {
		return LeaderElections.PHASE - 1;
	}

	public static void main(String[] args) {
		Thread lifetime = new Thread(() -> {
			try {
				Thread.sleep(LIFETIME_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			System.exit(0);
		}, "lifetime");
		lifetime.start(); // Not a daemon: it keeps the process alive, as nothing else would.
		new SpringApplicationBuilder(ComponentLeaderApplication.class).web(WebApplicationType.NONE).run(args);
	}

	/**
	 * A component that records when it runs, as a listener container would consume.
	 */
	static class Feed implements SmartLifecycle {

		private final String instance;

		private final String failStart;

		private final String failStop;

		private volatile boolean running;

		private volatile int starts;

		Feed(String instance, String failStart, String failStop) {
			this.instance = instance;
			this.failStart = failStart;
			this.failStop = failStop;
		}

		@Override
		public void start() {
			this.starts++;
			fail(this.failStart, "feed of " + this.instance + " cannot connect");
			Intervals.started(this.instance);
			this.running = true;
			System.out.println("feed started at " + System.currentTimeMillis());
		}

		@Override
		public void stop() {
			if (this.running) {
				try {
					Thread.sleep(STOP_MILLIS); // As a container finishing its last records.
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				this.running = false;
				Intervals.stopped(this.instance);
				System.out.println("feed stopped at " + System.currentTimeMillis());
				fail(this.failStop, "feed of " + this.instance + " could not close its connection");
			}
		}

		private static void fail(String how, String message) {
			switch (how) {
				case "true" -> throw new IllegalStateException(message);
				case "error" -> throw new LinkageError(message);
				case "checked" -> throw Feed.<RuntimeException>sneaky(new IOException(message));
				default -> {
				}
			}
		}

		@SuppressWarnings("unchecked")
		private static <T extends Throwable> T sneaky(Throwable ex) throws T {
			throw (T) ex;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return phase();
		}

		int starts() {
			return this.starts;
		}

	}

	/**
	 * The intervals in which the feeds of the instances in this JVM ran, on the monotonic clock.
	 */
	static final class Intervals {

		private static final List<Interval> intervals = new CopyOnWriteArrayList<>();

		private Intervals() {
		}

		static void clear() {
			intervals.clear();
		}

		static synchronized void started(String instance) {
			intervals.add(new Interval(instance, System.nanoTime(), Long.MAX_VALUE));
		}

		static synchronized void stopped(String instance) {
			for (int i = intervals.size() - 1; i >= 0; i--) {
				Interval interval = intervals.get(i);
				if (interval.instance().equals(instance) && interval.end() == Long.MAX_VALUE) {
					intervals.set(i, new Interval(instance, interval.start(), System.nanoTime()));
					return;
				}
			}
		}

		static List<Interval> all() {
			return List.copyOf(intervals);
		}

		static List<Interval> of(String instance) {
			return intervals.stream().filter((interval) -> interval.instance().equals(instance)).toList();
		}

		/**
		 * Return the pairs of intervals of different instances that overlap.
		 */
		static List<String> overlaps() {
			List<String> overlaps = new ArrayList<>();
			List<Interval> all = all();
			for (Interval a : all) {
				for (Interval b : all) {
					if (!a.instance().equals(b.instance()) && a.start() <= b.start() && b.start() < a.end()) {
						overlaps.add(a + " overlaps " + b);
					}
				}
			}
			return overlaps;
		}

	}

	record Interval(String instance, long start, long end) {

		boolean isOpen() {
			return this.end == Long.MAX_VALUE;
		}

	}

}
