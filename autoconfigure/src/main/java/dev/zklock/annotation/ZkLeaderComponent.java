package dev.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Ties a {@link org.springframework.context.SmartLifecycle SmartLifecycle} bean to the
 * leadership of a group: it runs only on the instance that leads the group. Put it on the bean's
 * class or on its {@code @Bean} method, for example a listener container:
 *
 * <pre class="code">
 * &#64;Bean
 * &#64;ZkLeaderComponent("orders-feed")
 * ConcurrentMessageListenerContainer&lt;String, Order&gt; ordersContainer(ConsumerFactory&lt;String, Order&gt; factory) {
 *     return new ConcurrentMessageListenerContainer&lt;&gt;(factory, new ContainerProperties("orders"));
 * }
 * </pre>
 * <p>
 * The bean does not start with the application context. It is started, in phase order with the
 * other components of its group, when this instance leads the group and the application is
 * ready ({@code ApplicationReadyEvent}), and stopped, in reverse order, as soon as the
 * leadership ends: when the connection to ZooKeeper is suspended, when the session is lost,
 * before this instance yields and before the application context closes, so before its
 * election node is given up. A component that fails to start is stopped with the others of its
 * group, and this instance yields the leadership so that another instance does the job.
 * <p>
 * The bean is wrapped in a class-based proxy (its class must not be final) whose
 * {@code isAutoStartup()} says {@code false}, and through which only zklock starts it: a
 * {@code start()} from elsewhere, such as {@code ConfigurableApplicationContext.start()} after a
 * {@code stop()}, starts the group's components only if this instance leads the group. Stopping
 * the context leaves the elections, so its components stop and another instance takes over;
 * starting it again rejoins them.
 *
 * @since 0.2.0
 * @see ZkLeader
 * @see dev.zklock.ZkLeadership
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ZkLeaderComponent {

	/**
	 * Alias for {@link #group()}.
	 * @return the group
	 */
	@AliasFor("group")
	String value() default "";

	/**
	 * The leadership group. Placeholders are resolved at startup; the empty default means
	 * {@code zklock.leader.default-group}.
	 * @return the group
	 */
	@AliasFor("value")
	String group() default "";

}
