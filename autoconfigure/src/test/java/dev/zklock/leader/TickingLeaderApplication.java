package dev.zklock.leader;

import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.annotation.ZkLeader;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * An application with a leader-only scheduled job that prints {@code tick <n>} every 50
 * milliseconds while it leads the group "ticks" ({@code tick <n> at <millis>} with
 * {@code -Dticks.stamped=true}). Run as a separate process, configured by system
 * properties, it exits by itself after two minutes.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@Import(LeaderTestApplication.class)
public class TickingLeaderApplication {

	static final String GROUP = "ticks";

	private static final long LIFETIME_MILLIS = 120_000;

	/**
	 * Whether each tick line also gives the wall-clock time the tick began, as
	 * {@code tick <n> at <millis>}.
	 */
	static final boolean STAMPED = Boolean.getBoolean("ticks.stamped");

	@Bean
	TickJob tickJob() {
		return new TickJob();
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
		lifetime.setDaemon(true);
		lifetime.start();
		new SpringApplicationBuilder(TickingLeaderApplication.class).web(WebApplicationType.NONE).run(args);
	}

	static class TickJob {

		private final AtomicInteger ticks = new AtomicInteger();

		@ZkLeader(GROUP)
		@Scheduled(fixedDelay = 50)
		public void tick() {
			long at = System.currentTimeMillis();
			int tick = this.ticks.incrementAndGet();
			System.out.println(STAMPED ? "tick " + tick + " at " + at : "tick " + tick);
		}

		public int ticks() {
			return this.ticks.get();
		}

	}

}
