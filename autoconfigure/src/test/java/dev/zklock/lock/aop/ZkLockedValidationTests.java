package dev.zklock.lock.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.support.InvalidAnnotationException;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.PriorityOrdered;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way a {@code @ZkLocked} annotation can be unusable fails the startup, naming the bean,
 * the method and the expression.
 */
@EmbeddedZooKeeper
class ZkLockedValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockedValidationTests.class))
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withPropertyValues("orders.wait=soon");

	@Test
	void validAnnotationsStart() {
		this.contextRunner.withBean("valid", Valid.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void unparseableKeyExpression() {
		assertInvalid(UnparseableKey.class, "UnparseableKey.reserve(String)",
				"the key expression ''stock:' + #sku +' is not valid SpEL (", "); fix the expression");
	}

	@Test
	void unknownParameterName() {
		assertInvalid(UnknownParameter.class, "UnknownParameter.reserve(String, int)",
				"the key expression '#skuu' refers to #skuu, which the method does not have; "
						+ "the method's parameters are #sku, #quantity (or by position #p0, #p1)");
	}

	@Test
	void positionBeyondTheParameters() {
		assertInvalid(PositionBeyond.class, "PositionBeyond.reserve(String)",
				"the key expression '#p1' refers to #p1, which the method does not have");
	}

	@Test
	void unknownBeanReference() {
		assertInvalid(UnknownBean.class, "UnknownBean.reserve(String)",
				"the key expression '@skuCodes.code(#sku)' refers to @skuCodes, but there is no bean named "
						+ "'skuCodes'; define that bean or fix its name");
	}

	@Test
	void knownBeanReferenceStarts() {
		this.contextRunner.withBean("skuCodes", SkuCodes.class)
			.withBean("orderService", UnknownBean.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void beanCreatedBeforeTheCheckIsCheckedAtStartupUnderItsName() {
		assertInvalid(EarlyBean.class, "EarlyBean.reserve(String)", "refers to @skuCodes, but there is no bean");
	}

	@Test
	void unparseableWaitTime() {
		assertInvalid(BadWaitTime.class, "BadWaitTime.reserve(String)",
				"the waitTime '5 sec' is not valid: it is not a duration; use a duration such as '500ms', '5s' "
						+ "or 'PT5S', '0' not to wait, '-1' to wait forever, or leave it empty to use "
						+ "zklock.lock.wait-time");
	}

	@Test
	void negativeWaitTime() {
		assertInvalid(NegativeWaitTime.class, "NegativeWaitTime.reserve(String)",
				"the waitTime '-5s' is not valid: it is negative, and only '-1' (wait forever) may be");
	}

	@Test
	void placeholderResolvingToAnInvalidWaitTime() {
		assertInvalid(PlaceholderWaitTime.class, "PlaceholderWaitTime.reserve(String)",
				"the waitTime '${orders.wait}' (resolved to 'soon') is not valid: it is not a duration");
	}

	@Test
	void unresolvablePlaceholderInWaitTime() {
		assertInvalid(MissingPlaceholder.class, "MissingPlaceholder.reserve(String)",
				"the waitTime '${orders.missing}' is not valid: Could not resolve placeholder 'orders.missing'");
	}

	@Test
	void skipOnAMethodReturningAPrimitive() {
		assertInvalid(SkipPrimitive.class, "SkipPrimitive.count(String)",
				"SKIP needs a method that can return without a value, but it returns the primitive int");
	}

	@Test
	void privateMethod() {
		assertInvalid(PrivateMethod.class, "PrivateMethod.reserve(String)",
				"the method is private, and a proxy cannot intercept private methods");
	}

	@Test
	void finalMethod() {
		assertInvalid(FinalMethod.class, "FinalMethod.reserve(String)",
				"the method is final, and a proxy cannot override final methods");
	}

	@Test
	void staticMethod() {
		assertInvalid(StaticMethod.class, "StaticMethod.reserve(String)", "the method is static");
	}

	@Test
	void finalClass() {
		assertInvalid(FinalClass.class, "FinalClass.reserve(String)", "the class is final");
	}

	@Test
	void completableFutureAndPublisherReturnTypesAreAccepted() {
		this.contextRunner.withBean("orderService", ReturnsCompletableFuture.class)
			.withBean("publisherService", ReturnsPublisher.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void futureReturnType() {
		assertInvalid(ReturnsFuture.class, "ReturnsFuture.reserve(String)",
				"it returns java.util.concurrent.Future, whose end the advice cannot wait for without blocking; "
						+ "declare the return type as CompletableFuture or CompletionStage");
	}

	@Test
	void completableFutureSubclassReturnType() {
		assertInvalid(ReturnsFutureSubclass.class, "ReturnsFutureSubclass.reserve(String)",
				"it returns " + OwnFuture.class.getName() + ", whose end the advice cannot wait for");
	}

	private <T> void assertInvalid(Class<T> beanClass, String method, String... problem) {
		this.contextRunner.withBean("orderService", beanClass).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			InvalidAnnotationException invalid = findCause(failure);
			assertThat(invalid).as("cause of %s", failure).isNotNull();
			assertThat(invalid.getBeanName()).isEqualTo("orderService");
			assertThat(invalid.getMessage()).startsWith("Invalid @ZkLocked on " + method + " of bean 'orderService': ");
			for (String part : problem) {
				assertThat(invalid.getMessage()).contains(part);
			}
		});
	}

	private static InvalidAnnotationException findCause(Throwable failure) {
		Throwable candidate = failure;
		while (candidate != null && !(candidate instanceof InvalidAnnotationException)) {
			candidate = candidate.getCause();
		}
		return (InvalidAnnotationException) candidate;
	}

	static class Valid {

		@ZkLocked(key = "'stock:' + #sku + ':' + #p1 + #a1 + #root.method.name", waitTime = "${orders.other:5s}",
				onTimeout = OnLockTimeout.SKIP)
		public Integer reserve(String sku, int quantity) {
			return quantity;
		}

		@ZkLocked(waitTime = "-1")
		public void forever() {
		}

		@ZkLocked(key = "{'a', 'b'}.?[#this != 'c']", waitTime = "PT0.5S")
		public void selection() {
		}

	}

	static class UnparseableKey {

		@ZkLocked("'stock:' + #sku +")
		public void reserve(String sku) {
		}

	}

	static class UnknownParameter {

		@ZkLocked("#skuu")
		public void reserve(String sku, int quantity) {
		}

	}

	static class UnknownBean {

		@ZkLocked("@skuCodes.code(#sku)")
		public void reserve(String sku) {
		}

	}

	static class SkuCodes {

		public String code(String sku) {
			return "sku:" + sku;
		}

	}

	/**
	 * A post-processor that runs before zklock's: created before zklock's post-processor
	 * exists, so that only the check at the end of startup sees it.
	 */
	static class EarlyBean implements BeanPostProcessor, PriorityOrdered {

		@ZkLocked("@skuCodes.code(#sku)")
		public void reserve(String sku) {
		}

		@Override
		public int getOrder() {
			return 0;
		}

	}

	static class PositionBeyond {

		@ZkLocked("#p1")
		public void reserve(String sku) {
		}

	}

	static class BadWaitTime {

		@ZkLocked(key = "#sku", waitTime = "5 sec")
		public void reserve(String sku) {
		}

	}

	static class NegativeWaitTime {

		@ZkLocked(key = "#sku", waitTime = "-5s")
		public void reserve(String sku) {
		}

	}

	static class PlaceholderWaitTime {

		@ZkLocked(key = "#sku", waitTime = "${orders.wait}")
		public void reserve(String sku) {
		}

	}

	static class MissingPlaceholder {

		@ZkLocked(key = "#sku", waitTime = "${orders.missing}")
		public void reserve(String sku) {
		}

	}

	static class SkipPrimitive {

		@ZkLocked(key = "#sku", onTimeout = OnLockTimeout.SKIP)
		public int count(String sku) {
			return 1;
		}

	}

	static class PrivateMethod {

		@ZkLocked("#sku")
		private void reserve(String sku) {
		}

	}

	static class FinalMethod {

		@ZkLocked("#sku")
		public final void reserve(String sku) {
		}

	}

	static class StaticMethod {

		@ZkLocked("#sku")
		public static void reserve(String sku) {
		}

	}

	static final class FinalClass {

		@ZkLocked("#sku")
		public void reserve(String sku) {
		}

	}

	static class ReturnsCompletableFuture {

		@ZkLocked("#sku")
		public CompletableFuture<String> reserve(String sku) {
			return CompletableFuture.completedFuture(sku);
		}

	}

	static class ReturnsFuture {

		@ZkLocked("#sku")
		public Future<String> reserve(String sku) {
			return CompletableFuture.completedFuture(sku);
		}

	}

	static class OwnFuture<T> extends CompletableFuture<T> {

	}

	static class ReturnsFutureSubclass {

		@ZkLocked("#sku")
		public OwnFuture<String> reserve(String sku) {
			return new OwnFuture<>();
		}

	}

	static class ReturnsPublisher {

		@ZkLocked("#sku")
		public Publisher<String> reserve(String sku) {
			return (subscriber) -> {
			};
		}

	}

}
