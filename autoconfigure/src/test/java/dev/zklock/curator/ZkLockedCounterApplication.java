package dev.zklock.curator;

import java.util.function.BooleanSupplier;

import dev.zklock.LockMode;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A process of zklock in the mixed runs, as an application has it: {@code @ZkLocked} methods on
 * key {@code orders}, configured by properties only (the base path, and
 * {@code zklock.lock.node-names} where the other side is Curator's mutex). The first of its
 * threads reads under the shared lock, the others write under the exclusive one, running
 * {@link MixedCounter}'s sections until the test ends the run, its writes named after
 * {@code counter.side}. Prints {@code SESSION <id>} once started.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class })
public class ZkLockedCounterApplication {

	@Bean
	Orders orders(CuratorFramework client) {
		return new Orders(new MixedCounter(client, System.getProperty("counter.side", "zklock")));
	}

	public static void main(String[] args) throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ZkLockedCounterApplication.class)
			.web(WebApplicationType.NONE)
			.run(args);
		CuratorFramework client = context.getBean(CuratorFramework.class);
		System.out.println("SESSION " + client.getZookeeperClient().getZooKeeper().getSessionId());
		Orders orders = context.getBean(Orders.class);
		BooleanSupplier stopped = MixedCounter.runUntilStopped(client);
		int threads = Integer.getInteger("counter.threads", 4);
		Thread[] running = new Thread[threads];
		for (int i = 0; i < threads; i++) {
			boolean reader = (i == 0);
			running[i] = new Thread(() -> {
				try {
					while (!stopped.getAsBoolean()) {
						if (reader) {
							orders.read();
						}
						else {
							orders.write();
						}
					}
				}
				catch (Exception ex) {
					ex.printStackTrace();
					System.exit(2);
				}
			}, "zklock-" + i);
			running[i].start();
		}
		for (Thread thread : running) {
			thread.join();
		}
		System.out.println("DONE");
		System.exit(0);
	}

	/**
	 * The locked methods.
	 */
	public static class Orders {

		private final MixedCounter counter;

		Orders(MixedCounter counter) {
			this.counter = counter;
		}

		@ZkLocked(key = "'orders'", waitTime = "-1")
		public void write() throws Exception {
			this.counter.write();
		}

		@ZkLocked(key = "'orders'", mode = LockMode.SHARED, waitTime = "-1")
		public void read() throws Exception {
			this.counter.read();
		}

	}

}
