package dev.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Runs the annotated method only on the instance that currently leads the method's group, for
 * example a scheduled job that must run on exactly one of several instances:
 *
 * <pre class="code">
 * &#64;ZkLeader
 * &#64;Scheduled(fixedRate = 60_000)
 * public void purgeExpiredCarts() {
 *     ...
 * }
 * </pre>
 * <p>
 * Each group is a real election among the running instances of the application, under
 * {@code zklock.leader.base-path}. The application joins every group that its {@code @ZkLeader}
 * beans name when it starts, before scheduled tasks run, and leaves them when it stops, so that
 * another instance takes over at once. An instance whose connection to ZooKeeper is suspended is
 * not the leader until it reconnects and has verified its place.
 * <p>
 * On a class, the annotation applies to every public method of the bean; an annotation on a
 * method wins over the one on its class. It may be used as a meta-annotation. The check is made
 * when a call begins: a blocking call that is running when the leadership ends runs to its end
 * (unless {@link #interruptOnRevoke()}), then throws a {@link dev.zklock.LeadershipLostException};
 * code inside it finds its term, with the epoch to fence its writes, through
 * {@link dev.zklock.ZkLeaderContext}. (Asynchronous and reactive methods are checked when they
 * start or are subscribed to, without a term.) Calls
 * from within the same object are not intercepted. The advice runs outside the lock advice of
 * {@code @ZkLocked} and outside {@code @Transactional}, so a skipped call takes no lock and
 * begins no transaction (see {@code zklock.leader.order}); with {@code @Async}, it runs on the
 * executor's thread when the call starts there.
 *
 * @since 0.1.0
 * @see dev.zklock.ZkLeadership
 */
@Target({ ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ZkLeader {

	/**
	 * Alias for {@link #group()}.
	 * @return the group
	 */
	@AliasFor("group")
	String value() default "";

	/**
	 * The leadership group: the instances that lead the same group lead all methods of that
	 * group together. Placeholders such as {@code "${jobs.group}"} are resolved at startup. The
	 * empty default means {@code zklock.leader.default-group}.
	 * @return the group
	 */
	@AliasFor("value")
	String group() default "";

	/**
	 * What a call does on an instance that is not the leader.
	 * @return the policy
	 */
	WhenNotLeader whenNotLeader() default WhenNotLeader.SKIP;

	/**
	 * Whether to interrupt the thread of a running call when its term of leadership ends, so
	 * that work blocked in an interruptible wait stops at once. Whether interrupted or not, a
	 * call that outlives its term ends with a {@link dev.zklock.LeadershipLostException} when
	 * it returns. An interrupt also closes an NIO channel (such as a {@code FileChannel}) that
	 * the thread is using.
	 * @return whether to interrupt a call on revocation
	 * @since 0.2.0
	 */
	boolean interruptOnRevoke() default false;

}
