package dev.zklock.systemtest.shedlock;

import java.util.concurrent.TimeUnit;

import dev.zklock.systemtest.history.HistoryWriter;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A Spring Boot application with a {@code @SchedulerLock} job ({@link ReportJob}) and its own
 * Curator client, as ShedLock users configure it for ShedLock's ZooKeeper provider. The
 * {@code LockProvider} is ShedLock's ({@link ShedLockZooKeeperConfiguration}) before the move
 * to zklock, and zklock's, from the starter's auto-configuration on the same client, after it.
 * Once started and connected it prints {@value #READY} followed by the class of its
 * {@code LockProvider}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = ReportJob.LOCK_AT_MOST_FOR)
@EnableConfigurationProperties(ReportProperties.class)
public class ReportApplication {

	/**
	 * The start of the line printed once the application has started and connected, followed by
	 * the class of its {@code LockProvider}.
	 */
	public static final String READY = "REPORT READY with ";

	private static final long CONNECT_SECONDS = 60;

	@Bean(initMethod = "start", destroyMethod = "close")
	CuratorFramework curatorFramework(ReportProperties properties) {
		int timeout = (int) properties.getSessionTimeout().toMillis();
		return CuratorFrameworkFactory.builder()
			.connectString(properties.getConnectString())
			.sessionTimeoutMs(timeout)
			.connectionTimeoutMs(timeout)
			.retryPolicy(new ExponentialBackoffRetry(100, 5))
			.build();
	}

	@Bean(destroyMethod = "close")
	HistoryWriter historyWriter(ReportProperties properties) {
		return HistoryWriter.open(properties.getHistory());
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> readyLine(CuratorFramework client, LockProvider lockProvider) {
		return (event) -> {
			try {
				if (!client.blockUntilConnected((int) CONNECT_SECONDS, TimeUnit.SECONDS)) {
					throw new IllegalStateException("Not connected to ZooKeeper within " + CONNECT_SECONDS + " s");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted", ex);
			}
			System.out.println(READY + lockProvider.getClass().getName());
			System.out.flush();
		};
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(ReportApplication.class).web(WebApplicationType.NONE).run(args);
	}

}
