package dev.zklock.systemtest.shedlock;

import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The one bean that the move to zklock removes: ShedLock's ZooKeeper provider on the
 * application's own client, as ShedLock's documentation configures it. Active with the
 * {@value #PROFILE} profile only, which the test sets for the application as it is before the
 * move, on a classpath with the provider and without zklock. Without it, zklock's
 * auto-configuration provides the {@code LockProvider}.
 */
@Configuration(proxyBeanMethods = false)
@Profile(ShedLockZooKeeperConfiguration.PROFILE)
public class ShedLockZooKeeperConfiguration {

	/**
	 * The profile of the application before the move.
	 */
	public static final String PROFILE = "shedlock-zookeeper";

	@Bean
	LockProvider lockProvider(CuratorFramework client) {
		return new ZookeeperCuratorLockProvider(client);
	}

}
