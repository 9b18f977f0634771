package dev.zklock.benchmarks.spring;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application with one {@code @ZkLeader} bean.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class LeaderWorkApplication {

	@Bean
	LeaderWork leaderWork() {
		return new LeaderWork();
	}

}
