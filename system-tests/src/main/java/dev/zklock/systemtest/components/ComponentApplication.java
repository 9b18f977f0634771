package dev.zklock.systemtest.components;

import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeaderComponent;
import dev.zklock.systemtest.app.ConnectionHistory;
import dev.zklock.systemtest.app.LeadershipHistory;
import dev.zklock.systemtest.history.HistoryWriter;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The application the leader-only component tests run as several processes against one
 * ZooKeeper ensemble: four {@link RecordedComponent} beans, each the {@code @ZkLeaderComponent}
 * of its own group ({@code systemtest.group-prefix} followed by {@code -1} to {@code -4}), the
 * leadership and connection events in the same history, and a {@link ContextControl}. It prints
 * {@value #READY} followed by the control port once it runs.
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableConfigurationProperties(ComponentProperties.class)
public class ComponentApplication {

	/**
	 * The start of the line printed once the application has started, followed by the control
	 * port.
	 */
	public static final String READY = "COMPONENTS READY on control port ";

	/**
	 * The number of groups, each with one component.
	 */
	public static final int GROUPS = 4;

	@Bean(destroyMethod = "close")
	HistoryWriter historyWriter(ComponentProperties properties) {
		return HistoryWriter.open(properties.getHistory());
	}

	@Bean
	@ZkLeaderComponent("${systemtest.group-prefix}-1")
	RecordedComponent component1(ZkLeadership leadership, HistoryWriter history, ComponentProperties properties) {
		return component(1, leadership, history, properties);
	}

	@Bean
	@ZkLeaderComponent("${systemtest.group-prefix}-2")
	RecordedComponent component2(ZkLeadership leadership, HistoryWriter history, ComponentProperties properties) {
		return component(2, leadership, history, properties);
	}

	@Bean
	@ZkLeaderComponent("${systemtest.group-prefix}-3")
	RecordedComponent component3(ZkLeadership leadership, HistoryWriter history, ComponentProperties properties) {
		return component(3, leadership, history, properties);
	}

	@Bean
	@ZkLeaderComponent("${systemtest.group-prefix}-4")
	RecordedComponent component4(ZkLeadership leadership, HistoryWriter history, ComponentProperties properties) {
		return component(4, leadership, history, properties);
	}

	@Bean
	LeadershipHistory leadershipHistory(HistoryWriter history, ComponentProperties properties) {
		return new LeadershipHistory(history, properties.getProcess());
	}

	@Bean
	ConnectionHistory connectionHistory(CuratorFramework client, HistoryWriter history,
			ComponentProperties properties) {
		return new ConnectionHistory(client, history, properties.getProcess());
	}

	@Bean
	ContextControl contextControl(ConfigurableApplicationContext context) {
		return new ContextControl(context);
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> readyLine(ContextControl control) {
		return (event) -> {
			System.out.println(READY + control.port());
			System.out.flush();
		};
	}

	/**
	 * Return the name of a group.
	 * @param prefix the {@code systemtest.group-prefix}
	 * @param number the group's number, from 1 to {@value #GROUPS}
	 * @return the name
	 */
	public static String group(String prefix, int number) {
		return prefix + "-" + number;
	}

	private static RecordedComponent component(int number, ZkLeadership leadership, HistoryWriter history,
			ComponentProperties properties) {
		return new RecordedComponent(group(properties.getGroupPrefix(), number), leadership, history,
				properties.getProcess(), properties.getStopTime());
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(ComponentApplication.class).web(WebApplicationType.NONE).run(args);
	}

}
