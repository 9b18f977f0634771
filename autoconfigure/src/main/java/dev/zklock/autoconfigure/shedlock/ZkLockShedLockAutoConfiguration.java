package dev.zklock.autoconfigure.shedlock;

import net.javacrumbs.shedlock.core.LockProvider;

import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.shedlock.ZkLockProvider;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of ShedLock on zklock: when ShedLock ({@code shedlock-core}, which
 * {@code shedlock-spring} brings) is on the classpath, a {@link ZkLockProvider} on the
 * application's {@link ZkLockTemplate} is the {@link LockProvider} that {@code @SchedulerLock}
 * jobs use, unless the application defines its own.
 *
 * @since 0.2.0
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class)
@ConditionalOnClass(LockProvider.class)
@ConditionalOnBean(ZkLockTemplate.class)
public final class ZkLockShedLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockProvider.class)
	ZkLockProvider zkLockProvider(ZkLockTemplate zkLockTemplate) {
		return new ZkLockProvider(zkLockTemplate);
	}

}
