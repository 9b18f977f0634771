package dev.zklock.kotlin

import dev.zklock.LockTimeoutException
import dev.zklock.NotLeaderException
import dev.zklock.ZkLeadership
import dev.zklock.annotation.OnLockTimeout
import dev.zklock.annotation.WhenNotLeader
import dev.zklock.annotation.ZkLeader
import dev.zklock.annotation.ZkLocked
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration
import dev.zklock.autoconfigure.ZkLockAutoConfiguration
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration
import dev.zklock.test.EmbeddedZooKeeper
import dev.zklock.test.ZooKeeperTestServer
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger

/**
 * Kotlin `suspend` functions under `@ZkLocked` and `@ZkLeader`, in two instances of an
 * application (two contexts, two ZooKeeper sessions): the lock is held across suspension points,
 * and no thread waits for it.
 */
@EmbeddedZooKeeper
@Timeout(120)
class SuspendFunctionTests {

	@Test
	fun `suspend functions of two instances keep an unsynchronised counter exact`(server: ZooKeeperTestServer) {
		val counter = Counter()
		val instance = runner(server, counter)
		instance.run { first ->
			instance.run { second ->
				runBlocking {
					(1..25).flatMap { listOf(first, second) }
						.map { context -> async(Dispatchers.Default) { context.getBean(CounterService::class.java).increment() } }
						.awaitAll()
				}
				assertThat(counter.value).isEqualTo(50)
				assertThat(counter.overlap).isFalse()
			}
		}
	}

	@Test
	fun `a suspend function waits for the lock without a thread, and times out or is skipped`(server: ZooKeeperTestServer) {
		val counter = Counter()
		val instance = runner(server, counter)
		instance.run { first ->
			instance.run { second ->
				runBlocking {
					val release = CompletableDeferred<Unit>()
					val holding = async(Dispatchers.Default) { first.getBean(CounterService::class.java).hold(release) }
					await().atMost(Duration.ofSeconds(20)).until { counter.holding.get() == 1 }
					val other = second.getBean(CounterService::class.java)
					assertThat(other.skipIfHeld()).isNull()
					assertThatExceptionOfType(LockTimeoutException::class.java).isThrownBy {
						runBlocking { other.throwIfHeld() }
					}
					release.complete(Unit)
					assertThat(withTimeout(20_000) { holding.await() }).isEqualTo("released")
					assertThat(other.skipIfHeld()).isEqualTo("ran")
				}
			}
		}
	}

	@Test
	fun `a leader-only suspend function runs on the leader only`(server: ZooKeeperTestServer) {
		val counter = Counter()
		val instance = runner(server, counter)
		instance.run { first ->
			await().atMost(Duration.ofSeconds(20)).until { first.getBean(ZkLeadership::class.java).isLeader("kotlin") }
			instance.run { second ->
				runBlocking {
					assertThat(first.getBean(CounterService::class.java).leaderOnly()).isEqualTo("ran")
					assertThat(second.getBean(CounterService::class.java).leaderOnly()).isNull()
				}
				assertThatExceptionOfType(NotLeaderException::class.java).isThrownBy {
					runBlocking { second.getBean(CounterService::class.java).leaderOrThrow() }
				}
				assertThat(counter.leaderCalls.get()).isEqualTo(1)
			}
		}
	}

	private fun runner(server: ZooKeeperTestServer, counter: Counter): ApplicationContextRunner =
		ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration::class.java,
					ZkLockAutoConfiguration::class.java, ZkLeaderAutoConfiguration::class.java))
			.withPropertyValues("zklock.connect-string=" + server.connectString)
			.withBean(CounterService::class.java, { CounterService(counter) })

	class Counter {

		@Volatile
		var value = 0

		@Volatile
		var overlap = false

		val inside = AtomicInteger()

		val holding = AtomicInteger()

		val leaderCalls = AtomicInteger()

	}

	open class CounterService(private val counter: Counter) {

		@ZkLocked("'counter'")
		open suspend fun increment(): Int {
			if (counter.inside.incrementAndGet() != 1) {
				counter.overlap = true
			}
			val read = counter.value
			delay(2)
			counter.value = read + 1
			counter.inside.decrementAndGet()
			return read + 1
		}

		@ZkLocked("'held'")
		open suspend fun hold(release: CompletableDeferred<Unit>): String {
			counter.holding.incrementAndGet()
			release.await()
			return "released"
		}

		@ZkLocked(key = "'held'", waitTime = "0", onTimeout = OnLockTimeout.SKIP)
		open suspend fun skipIfHeld(): String? = "ran"

		@ZkLocked(key = "'held'", waitTime = "200ms")
		open suspend fun throwIfHeld(): String = "ran"

		@ZkLeader("kotlin")
		open suspend fun leaderOnly(): String? {
			counter.leaderCalls.incrementAndGet()
			return "ran"
		}

		@ZkLeader(group = "kotlin", whenNotLeader = WhenNotLeader.THROW)
		open suspend fun leaderOrThrow(): String = "ran"

	}

}
