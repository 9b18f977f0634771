package dev.zklock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts a real ZooKeeper server in the test JVM, on a free loopback port, before the annotated
 * test class and stops it after the class.
 * <p>
 * Spring tests of the class (for example {@code @SpringBootTest}) get its address as the
 * {@code zklock.connect-string} property, and their application contexts are closed before the
 * server stops. Tests and lifecycle methods can declare a {@link ZooKeeperTestServer} parameter to
 * get the server itself, to read its connect string or to stop and restart it.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;EmbeddedZooKeeper
 * class OrderServiceTests {
 *     ...
 * }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedZooKeeperExtension.class)
public @interface EmbeddedZooKeeper {

	/**
	 * The server's tick in milliseconds. Sessions may last from two to a thousand ticks, so the
	 * default allows session timeouts from 1 second to 500 seconds.
	 * @return the tick time
	 */
	int tickTime() default 500;

}
