package dev.zklock.lock.aop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.zklock.LockMode;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.support.InvalidAnnotationException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Lock specs and key expressions as pure logic, without ZooKeeper.
 */
class LockSpecsTests {

	private final LockSpecs specs = new LockSpecs(beanFactory());

	private final Orders orders = new Orders();

	@Test
	void parameterByName() {
		assertThat(keys("byName", "sku-1", 3)).containsExactly("stock:sku-1");
	}

	@Test
	void parameterByPosition() {
		assertThat(keys("byP0", "sku-1", 3)).containsExactly("sku-1");
		assertThat(keys("byA1", "sku-1", 3)).containsExactly("3");
	}

	@Test
	void beanReference() {
		assertThat(keys("byBean", "sku-1")).containsExactly("eu/sku-1");
	}

	@Test
	void rootMethodAndTarget() {
		assertThat(keys("byRoot", "x")).containsExactly("byRoot@orders-7:Orders");
	}

	@Test
	void emptyKeyIsClassAndMethodName() {
		LockSpec spec = spec("defaultKey");
		assertThat(spec.keyExpression()).isNull();
		assertThat(keys("defaultKey")).containsExactly("Orders.defaultKey");
	}

	@Test
	void nonStringValueIsConvertedWithToString() {
		assertThat(keys("byA1", "sku-1", 42)).containsExactly("42");
	}

	@Test
	void collectionAndArrayGiveEveryElement() {
		assertThat(keys("collection", List.of("b", "a", "b"))).containsExactly("b", "a", "b");
		assertThat(keys("array", (Object) new String[] { "x", "y" })).containsExactly("x", "y");
		assertThat(keys("ints", (Object) new int[] { 2, 1 })).containsExactly("2", "1");
	}

	@Test
	void nullKeyNamesMethodAndExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> keys("byP0", null, 1))
			.withMessage("The @ZkLocked key expression '#p0' of Orders.byP0(String, int) evaluated to null; "
					+ "the method was not called");
	}

	@Test
	void emptyKeyIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> keys("byP0", "", 1))
			.withMessageContaining("'#p0'")
			.withMessageContaining("Orders.byP0(String, int)")
			.withMessageContaining("evaluated to an empty key");
	}

	@Test
	void nullOrEmptyElementIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> keys("collection", Arrays.asList("a", null)))
			.withMessageContaining("'#skus'")
			.withMessageContaining("evaluated to null");
		assertThatIllegalArgumentException().isThrownBy(() -> keys("collection", List.of("a", "")))
			.withMessageContaining("evaluated to an empty key");
		assertThatIllegalArgumentException().isThrownBy(() -> keys("collection", Set.of()))
			.withMessageContaining("evaluated to an empty collection");
	}

	@Test
	void failingExpressionNamesMethodAndExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> keys("navigates", (Object) null))
			.withMessageContaining("'#order.id'")
			.withMessageContaining("could not be evaluated");
	}

	@Test
	void attributesAreResolved() {
		LockSpec spec = spec("attributes");
		assertThat(spec.mode()).isEqualTo(LockMode.SHARED);
		assertThat(spec.waitTime()).isEqualTo(Duration.ofSeconds(7));
		assertThat(spec.onTimeout()).isEqualTo(OnLockTimeout.SKIP);
		assertThat(spec("byP0").waitTime()).isNull();
		assertThat(spec("forever").waitTime()).isNegative();
		assertThat(spec("noWait").waitTime()).isZero();
	}

	@Test
	void placeholderDefaultAndPropertyAreUsed() {
		assertThat(spec("placeholderDefault").waitTime()).isEqualTo(Duration.ofSeconds(5));
		assertThat(spec("placeholderProperty").waitTime()).isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void metaAnnotationIsFound() {
		LockSpec spec = spec("meta");
		assertThat(spec.mode()).isEqualTo(LockMode.SHARED);
		assertThat(keys("meta")).containsExactly("reports");
	}

	@Test
	void specIsResolvedOnceAndExpressionParsedOnce() {
		LockSpec first = spec("byName");
		assertThat(spec("byName")).isSameAs(first);
		assertThat(first.keyExpression()).isNotNull();
	}

	@Test
	void notAnnotatedMethodHasNoSpec() {
		assertThat(this.specs.specFor(method("plain"), Orders.class, "orders")).isNull();
		assertThat(this.specs.specFor(method("plain"), Orders.class, "orders")).isNull();
	}

	@Test
	void privateAndFinalMethodsAreRejectedForProxiesAndAcceptedForWovenAspects() {
		assertThatExceptionOfType(InvalidAnnotationException.class)
			.isThrownBy(() -> this.specs.specFor(method("privately"), Orders.class, "orders"))
			.withMessageContaining("the method is private, and a proxy cannot intercept private methods");
		assertThatExceptionOfType(InvalidAnnotationException.class)
			.isThrownBy(() -> this.specs.specFor(method("finalMethod"), Orders.class, "orders"))
			.withMessageContaining("the method is final");
		LockSpecs woven = new LockSpecs(beanFactory(), AdviceMode.ASPECTJ);
		assertThat(woven.specFor(method("privately"), Orders.class, "orders")).isNotNull();
		assertThat(woven.specFor(method("finalMethod"), Orders.class, "orders")).isNotNull();
		assertThatExceptionOfType(InvalidAnnotationException.class)
			.isThrownBy(() -> woven.specFor(method("statically"), Orders.class, "orders"))
			.withMessageContaining("the method is static, and zklock's aspects advise instance methods only");
	}

	private List<String> keys(String methodName, Object... args) {
		return this.specs.keys(spec(methodName), this.orders, Orders.class, args);
	}

	private LockSpec spec(String methodName) {
		LockSpec spec = this.specs.specFor(method(methodName), Orders.class, "orders");
		assertThat(spec).isNotNull();
		return spec;
	}

	private static Method method(String name) {
		Method found = Arrays.stream(ReflectionUtils.getDeclaredMethods(Orders.class))
			.filter((method) -> method.getName().equals(name))
			.findFirst()
			.orElseThrow();
		return found;
	}

	private static DefaultListableBeanFactory beanFactory() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton("inventory", new Inventory());
		MockEnvironment environment = new MockEnvironment().withProperty("orders.wait", "1500ms");
		beanFactory.addEmbeddedValueResolver(environment::resolvePlaceholders);
		return beanFactory;
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@ZkLocked(key = "'reports'", mode = LockMode.SHARED)
	@interface ReportLock {

	}

	static class Inventory {

		public String getRegion() {
			return "eu";
		}

	}

	record Order(String id) {

	}

	static class Orders {

		public String getId() {
			return "orders-7";
		}

		@ZkLocked("'stock:' + #sku")
		public void byName(String sku, int quantity) {
		}

		@ZkLocked("#p0")
		public void byP0(String sku, int quantity) {
		}

		@ZkLocked(key = "#a1")
		public void byA1(String sku, int quantity) {
		}

		@ZkLocked("@inventory.region + '/' + #sku")
		public void byBean(String sku) {
		}

		@ZkLocked("#root.method.name + '@' + #root.target.id + ':' + #root.targetClass.simpleName")
		public void byRoot(String sku) {
		}

		@ZkLocked
		public void defaultKey() {
		}

		@ZkLocked("#skus")
		public void collection(java.util.Collection<String> skus) {
		}

		@ZkLocked("#skus")
		public void array(String[] skus) {
		}

		@ZkLocked("#ids")
		public void ints(int[] ids) {
		}

		@ZkLocked("#order.id")
		public void navigates(Order order) {
		}

		@ZkLocked(key = "'a'", mode = LockMode.SHARED, waitTime = "7s", onTimeout = OnLockTimeout.SKIP)
		public Optional<String> attributes() {
			return Optional.of("a");
		}

		@ZkLocked(key = "'a'", waitTime = "-1")
		public void forever() {
		}

		@ZkLocked(key = "'a'", waitTime = "0")
		public void noWait() {
		}

		@ZkLocked(key = "'a'", waitTime = "${orders.other-wait:5s}")
		public void placeholderDefault() {
		}

		@ZkLocked(key = "'a'", waitTime = "${orders.wait}")
		public void placeholderProperty() {
		}

		@ReportLock
		public void meta() {
		}

		public void plain() {
		}

		@ZkLocked("'private'")
		private void privately() {
		}

		@ZkLocked("'final'")
		public final void finalMethod() {
		}

		@ZkLocked("'static'")
		public static void statically() {
		}

	}

}
