package dev.zklock.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.actuate.ZkLockEndpoint.GroupDescriptor;
import dev.zklock.actuate.ZkLockEndpoint.ZkLockDescriptor;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockEndpointAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.lock.HeldLockInfo;
import dev.zklock.lock.WaitingCallInfo;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.convert.support.ConfigurableConversionService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@code zklock} endpoint against a real ZooKeeper server: what it shows of locks held and
 * waited for, yielding leadership through it, and when it is exposed with which operations.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ZkLockEndpointTests {

	private static final AutoConfigurations ZKLOCK = AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
			ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class, ZkLockEndpointAutoConfiguration.class);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	private ApplicationContextRunner runner(ZooKeeperTestServer server) {
		return new ApplicationContextRunner().withConfiguration(ZKLOCK)
			.withInitializer(ZkLockEndpointTests::convertLikeSpringApplication)
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(),
					"management.endpoints.web.exposure.include=zklock");
	}

	@Test
	void listsAHeldLockWithItsTokenWhileACallIsInsideAndNothingAfter(ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			ZkLockEndpoint endpoint = context.getBean(ZkLockEndpoint.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			assertThat(endpoint.zklock().locks().held()).isEmpty();
			CountDownLatch release = new CountDownLatch(1);
			AtomicReference<HeldLock> inside = new AtomicReference<>();
			AtomicReference<String> thread = new AtomicReference<>();
			Future<?> call = this.executor.submit(() -> template.execute("stock:42", (lock) -> {
				thread.set(Thread.currentThread().getName());
				inside.set(lock);
				return release.await(60, TimeUnit.SECONDS);
			}));
			try {
				await().atMost(Duration.ofSeconds(30)).until(() -> inside.get() != null);
				ZkLockDescriptor described = endpoint.zklock();
				assertThat(described.connection().state()).isEqualTo("CONNECTED");
				assertThat(described.connection().sessionId()).startsWith("0x");
				assertThat(described.locks().held()).singleElement().satisfies((held) -> {
					assertThat(held.key()).isEqualTo("stock:42");
					assertThat(held.mode()).isEqualTo(LockMode.EXCLUSIVE);
					assertThat(held.thread()).isEqualTo(thread.get());
					assertThat(held.fencingToken()).isEqualTo(inside.get().fencingToken()).isPositive();
					assertThat(held.state()).isEqualTo("VALID");
					assertThat(held.since()).isNotNull();
				});
			}
			finally {
				release.countDown();
			}
			call.get(30, TimeUnit.SECONDS);
			assertThat(endpoint.zklock().locks().held()).isEmpty();
			assertThat(endpoint.zklock().locks().waiting()).isEmpty();
		});
	}

	@Test
	void listsTheCallsWaitingForALock(ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			ZkLockEndpoint endpoint = context.getBean(ZkLockEndpoint.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CountDownLatch release = new CountDownLatch(1);
			CountDownLatch holding = new CountDownLatch(1);
			Future<?> holder = this.executor.submit(() -> template.execute("report", (lock) -> {
				holding.countDown();
				return release.await(60, TimeUnit.SECONDS);
			}));
			Future<?> waiter;
			try {
				assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
				waiter = this.executor.submit(() -> template.execute("report", LockMode.SHARED, Duration.ofSeconds(60),
						(lock) -> "read"));
				await().atMost(Duration.ofSeconds(30)).until(() -> !endpoint.zklock().locks().waiting().isEmpty());
				List<WaitingCallInfo> waiting = endpoint.zklock().locks().waiting();
				assertThat(waiting).singleElement().satisfies((call) -> {
					assertThat(call.key()).isEqualTo("report");
					assertThat(call.mode()).isEqualTo(LockMode.SHARED);
					assertThat(call.since()).isNotNull();
				});
				assertThat(endpoint.zklock().locks().held()).extracting(HeldLockInfo::key).containsExactly("report");
			}
			finally {
				release.countDown();
			}
			holder.get(30, TimeUnit.SECONDS);
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo("read");
			assertThat(endpoint.zklock().locks().waiting()).isEmpty();
		});
	}

	@Test
	void yieldingThroughTheEndpointHandsTheLeadershipOver(ZooKeeperTestServer server) {
		ApplicationContextRunner runner = runner(server).withPropertyValues("zklock.leader.groups=handover");
		runner.withPropertyValues("zklock.leader.participant-id=blue").run((blue) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> blue.getBean(ZkLeadership.class).isLeader("handover"));
			runner.withPropertyValues("zklock.leader.participant-id=green").run((green) -> {
				ZkLockEndpoint blueEndpoint = blue.getBean(ZkLockEndpoint.class);
				ZkLockEndpoint greenEndpoint = green.getBean(ZkLockEndpoint.class);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> greenEndpoint.group("handover").participants().size() == 2);
				GroupDescriptor before = greenEndpoint.group("handover");
				assertThat(before.leader()).isFalse();
				assertThat(before.currentLeader()).isEqualTo("blue");
				assertThat(before.participants()).containsExactly("blue", "green");
				assertThat(before.epoch()).isEqualTo(blueEndpoint.group("handover").epoch()).isNotNull();
				assertThat(blueEndpoint.zklock().leadership().groups()).containsKey("handover");

				assertThat(blueEndpoint.yieldLeadership("handover").yielded()).isTrue();

				await().atMost(Duration.ofSeconds(30)).until(() -> greenEndpoint.group("handover").leader());
				GroupDescriptor after = blueEndpoint.group("handover");
				assertThat(after.leader()).isFalse();
				assertThat(after.currentLeader()).isEqualTo("green");
				assertThat(after.participants()).containsExactly("green", "blue");
				assertThat(after.epoch()).isGreaterThan(before.epoch());
			});
		});
	}

	@Test
	void aGroupThisInstanceTakesNoPartInIsNotFound(ZooKeeperTestServer server) {
		runner(server).withPropertyValues("zklock.leader.groups=known").run((context) -> {
			ZkLockEndpoint endpoint = context.getBean(ZkLockEndpoint.class);
			assertThat(endpoint.group("unknown")).isNull();
			assertThat(endpoint.group("known")).isNotNull();
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.yieldLeadership("unknown"))
				.withMessageContaining("'unknown'");
		});
	}

	@Test
	void isNotAvailableUnlessExposed(ZooKeeperTestServer server) {
		new ApplicationContextRunner().withConfiguration(ZKLOCK)
			.withInitializer(ZkLockEndpointTests::convertLikeSpringApplication)
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockEndpoint.class));
		runner(server).withPropertyValues("management.endpoint.zklock.access=none")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockEndpoint.class));
		runner(server).withPropertyValues("management.endpoints.web.exposure.include=health")
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=zklock")
			.run((context) -> assertThat(context).hasSingleBean(ZkLockEndpoint.class));
	}

	@Test
	void isReadOnlyOverTheWebUnlessAccessIsUnrestricted(ZooKeeperTestServer server) {
		WebApplicationContextRunner web = new WebApplicationContextRunner()
			.withInitializer(ZkLockEndpointTests::convertLikeSpringApplication)
			.withConfiguration(ZKLOCK)
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(),
					"management.endpoints.web.exposure.include=zklock");
		web.run((context) -> assertThat(operations(context)).containsExactlyInAnyOrder(OperationType.READ,
				OperationType.READ));
		web.withPropertyValues("management.endpoint.zklock.access=unrestricted")
			.run((context) -> assertThat(operations(context)).containsExactlyInAnyOrder(OperationType.READ,
					OperationType.READ, OperationType.WRITE));
		web.withPropertyValues("management.endpoints.access.max-permitted=read-only",
				"management.endpoint.zklock.access=unrestricted")
			.run((context) -> assertThat(operations(context)).doesNotContain(OperationType.WRITE));
	}

	/**
	 * Read property values as a Spring application does, so that access levels are written as
	 * the documentation writes them ({@code unrestricted}, {@code read-only}).
	 */
	private static void convertLikeSpringApplication(ConfigurableApplicationContext context) {
		context.getEnvironment()
			.setConversionService((ConfigurableConversionService) ApplicationConversionService.getSharedInstance());
	}

	private static List<OperationType> operations(AssertableWebApplicationContext context) {
		ExposableWebEndpoint endpoint = context.getBean(WebEndpointsSupplier.class)
			.getEndpoints()
			.stream()
			.filter((candidate) -> candidate.getEndpointId().toString().equals("zklock"))
			.findFirst()
			.orElseThrow();
		return endpoint.getOperations().stream().map(WebOperation::getType).toList();
	}

}
