package dev.zklock.autoconfigure;

import dev.zklock.web.ZkLockExceptionHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;

/**
 * Auto-configuration of {@link ZkLockExceptionHandler} in Spring MVC and Spring WebFlux
 * applications: a busy lock answers {@code 423 Locked}, a lost lock, a lost leadership, a call
 * on an instance that is not the leader and an unreachable ZooKeeper {@code 503 Service
 * Unavailable}, each with a problem detail. Unlike {@code spring.mvc.problemdetails.enabled},
 * which changes the body of errors that already have their status, it is on by default: without
 * it these exceptions would be a bare {@code 500}. Turned off with
 * {@code zklock.web.problem-details.enabled=false}; an application's own handler bean of this
 * type replaces it, and its own {@code @ExceptionHandler} methods for these exceptions win.
 *
 * @since 0.2.0
 */
@AutoConfiguration
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnWebApplication
@ConditionalOnBooleanProperty(name = "zklock.web.problem-details.enabled", matchIfMissing = true)
public final class ZkLockWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkLockExceptionHandler zkLockExceptionHandler() {
		return new ZkLockExceptionHandler();
	}

}
