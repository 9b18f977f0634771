package dev.zklock.leader;

import java.lang.reflect.Method;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Stands between a leader-only component and every caller of its lifecycle but zklock: the
 * component does not start with the context ({@code isAutoStartup()} says {@code false}); a
 * {@code start()} from outside, such as {@code ConfigurableApplicationContext.start()} after a
 * {@code stop()}, only asks {@link LeaderComponents} to start the group's components if this
 * instance leads the group; a {@code stop()} from outside stops them through
 * {@code LeaderComponents}, so that it knows they are stopped. zklock's own calls, on the
 * group's component thread, go through.
 */
final class LeaderComponentInterceptor implements MethodInterceptor {

	private final LeaderComponents components;

	private final String group;

	LeaderComponentInterceptor(LeaderComponents components, String group) {
		this.components = components;
		this.group = group;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		String name = method.getName();
		int parameters = method.getParameterCount();
		if ("isAutoStartup".equals(name) && parameters == 0) {
			return Boolean.FALSE;
		}
		boolean start = "start".equals(name) && parameters == 0;
		boolean stop = "stop".equals(name) && (parameters == 0
				|| (parameters == 1 && method.getParameterTypes()[0] == Runnable.class));
		if ((!start && !stop) || this.components.startsAndStops(this.group)) {
			return invocation.proceed();
		}
		if (start) {
			this.components.requestStart(this.group);
			return null;
		}
		try {
			this.components.requestStop(this.group);
		}
		finally {
			if (parameters == 1) {
				((Runnable) invocation.getArguments()[0]).run();
			}
		}
		return null;
	}

}
