package dev.zklock.leader;

import java.lang.reflect.Method;

import dev.zklock.annotation.ZkLeader;

import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Matches the methods that have a leader spec, directly, through their class or through a
 * meta-annotation, so that the pointcut and the leader-only advice always agree.
 */
final class LeaderMethodPointcut extends StaticMethodMatcherPointcut {

	private final LeaderMethods methods;

	LeaderMethodPointcut(LeaderMethods methods) {
		this.methods = methods;
		setClassFilter((type) -> AnnotationUtils.isCandidateClass(type, ZkLeader.class));
	}

	@Override
	public boolean matches(Method method, Class<?> targetClass) {
		return this.methods.specFor(method, targetClass) != null;
	}

}
