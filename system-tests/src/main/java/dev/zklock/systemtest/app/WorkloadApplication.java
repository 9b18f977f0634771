package dev.zklock.systemtest.app;

import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeaderComponent;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.register.FencedRegisterClient;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The application the system tests run as several processes against one ZooKeeper ensemble,
 * configured with {@code zklock.*} and {@code systemtest.*} properties. It prints
 * {@value #READY} once it runs.
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties(WorkloadProperties.class)
public class WorkloadApplication {

	/**
	 * The line printed once the application has started.
	 */
	public static final String READY = "WORKLOAD READY";

	@Bean(destroyMethod = "close")
	HistoryWriter historyWriter(WorkloadProperties properties) {
		return HistoryWriter.open(properties.getHistory());
	}

	@Bean
	RegisterWork registerWork(WorkloadProperties properties) {
		return new RegisterWork(new FencedRegisterClient(properties.getRegisterUri()), properties.getWorkTime());
	}

	@Bean
	LockWorkers lockWorkers(RegisterWork registerWork, HistoryWriter historyWriter, WorkloadProperties properties) {
		return new LockWorkers(registerWork, historyWriter, properties);
	}

	@Bean
	LeaderTicks leaderTicks(ZkLeadership leadership, HistoryWriter historyWriter, WorkloadProperties properties) {
		return new LeaderTicks(leadership, historyWriter, properties.getProcess());
	}

	@Bean
	@ZkLeaderComponent(LeaderFeed.GROUP)
	LeaderFeed leaderFeed(ZkLeadership leadership, HistoryWriter historyWriter, WorkloadProperties properties) {
		return new LeaderFeed(leadership, historyWriter, properties.getProcess());
	}

	@Bean
	LeadershipHistory leadershipHistory(HistoryWriter historyWriter, WorkloadProperties properties) {
		return new LeadershipHistory(historyWriter, properties.getProcess());
	}

	@Bean
	ConnectionHistory connectionHistory(CuratorFramework client, HistoryWriter historyWriter,
			WorkloadProperties properties) {
		return new ConnectionHistory(client, historyWriter, properties.getProcess());
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> readyLine() {
		return (event) -> {
			System.out.println(READY);
			System.out.flush();
		};
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(WorkloadApplication.class).web(WebApplicationType.NONE).run(args);
	}

}
