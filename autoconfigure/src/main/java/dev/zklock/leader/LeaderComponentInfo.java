package dev.zklock.leader;

import org.jspecify.annotations.Nullable;

/**
 * A leader-only component, as the {@code zklock} endpoint shows it.
 *
 * @param beanName the name of the bean
 * @param phase the lifecycle phase: components start in ascending and stop in descending order
 * @param running whether the component says it is running
 * @param failure why the last start failed, or {@code null}
 * @since 0.2.0
 */
public record LeaderComponentInfo(String beanName, int phase, boolean running, @Nullable String failure) {

}
