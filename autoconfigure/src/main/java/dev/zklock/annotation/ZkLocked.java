package dev.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.zklock.LockMode;

import org.springframework.core.annotation.AliasFor;

/**
 * Runs the annotated method while holding a ZooKeeper lock on a key, across every instance of
 * the application that uses the same ZooKeeper ensemble.
 * <p>
 * The key names the resource, not the method: every method that locks the same key shares one
 * lock. It is a SpEL expression over the method's arguments ({@code #sku}, {@code #p0}), beans
 * ({@code @inventory}), {@code #root.method} and {@code #root.target}; a collection or array
 * locks every element, in one global order.
 * <p>
 * Inside the call, {@link dev.zklock.ZkLockContext#current()} gives the held lock and its
 * fencing token. If the lock is lost or in doubt when the method returns, the call ends with
 * {@link dev.zklock.LockLostException}.
 *
 * <pre class="code">
 * &#64;ZkLocked(key = "'stock:' + #sku", waitTime = "5s")
 * public Reservation reserve(String sku, int qty) { ... }
 * </pre>
 *
 * @since 0.1.0
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ZkLocked {

	/**
	 * Alias for {@link #key()}.
	 * @return the key expression
	 */
	@AliasFor("key")
	String value() default "";

	/**
	 * SpEL expression for the lock key. Empty means {@code "<SimpleClassName>.<methodName>"}.
	 * @return the key expression
	 */
	@AliasFor("value")
	String key() default "";

	/**
	 * How the lock is held.
	 * @return the mode
	 */
	LockMode mode() default LockMode.EXCLUSIVE;

	/**
	 * How long to wait for the lock: {@code "500ms"}, {@code "5s"}, {@code "PT5S"}, or a
	 * placeholder such as {@code "${orders.lock-wait:5s}"}. {@code "0"} means do not wait,
	 * {@code "-1"} wait forever, and empty means {@code zklock.lock.wait-time}.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * What to do when the lock is not obtained within the wait time.
	 * @return the timeout policy
	 */
	OnLockTimeout onTimeout() default OnLockTimeout.THROW;

}
