package dev.zklock.shedlock;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import dev.zklock.LockMode;
import dev.zklock.ReleasableLock;
import dev.zklock.ZkLockTemplate;

/**
 * ShedLock's {@link ExtensibleLockProvider} on zklock: {@code @SchedulerLock} jobs (and ShedLock's
 * {@code LockingTaskExecutor}) take the exclusive lock of the key named as the job's lock, through
 * a {@link ZkLockTemplate}, without waiting (a job whose lock is held elsewhere is skipped, as with
 * every ShedLock provider). The key is the lock's name itself: a {@code @ZkLocked} call on the same
 * key excludes the job.
 * <p>
 * The lock is a zklock lock, bound to the ZooKeeper session of the instance that holds it, not a
 * record with a time in it. What ShedLock's times mean then:
 * <ul>
 * <li>A holder that dies (its process, or its session) releases the lock at once, after the
 * session timeout at most, whatever {@code lockAtMostFor} says: another instance can run the next
 * tick. ShedLock's storage-based providers (and its ZooKeeper provider, which writes a time into a
 * persistent node) keep a dead holder's lock until {@code lockAtMostFor} has passed.
 * <li>{@code lockAtMostFor} still ends the lock of a holder that lives but hangs: the lock is
 * released when it has passed, as with ShedLock, although the job may still be running. Its
 * {@link SimpleLock#unlock()} then does nothing.
 * <li>{@code lockAtLeastFor} keeps the lock after a job that ended sooner, until it has passed,
 * so that an instance whose clock is a little behind does not run the same tick again. The
 * instance keeps holding its lock node meanwhile.
 * <li>{@link SimpleLock#extend} moves both times, if the lock is still held and its
 * {@code lockAtMostFor} has not passed.
 * </ul>
 * The times are measured on this instance's clock ({@link ClockProvider}), from the
 * configuration's creation, as ShedLock computes them; the releases they ask for are made by a
 * timer of this provider, and also by the provider's next {@link #lock} of the same name that
 * finds one due.
 *
 * @since 0.2.0
 */
public class ZkLockProvider implements ExtensibleLockProvider, AutoCloseable {

	private final ZkLockTemplate template;

	private final ScheduledExecutorService timer;

	private final Map<String, ShedLockGrant> grants = new ConcurrentHashMap<>();

	/**
	 * Create a provider.
	 * @param template the template whose instance holds the locks
	 */
	public ZkLockProvider(ZkLockTemplate template) {
		this.template = template;
		this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "zklock-shedlock-timer");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Take the lock of the configuration's name if no one holds it, without waiting.
	 * @param lockConfiguration the job's lock
	 * @return the lock, or empty if it is held (by this instance or another)
	 * @throws dev.zklock.ZkLockException if ZooKeeper is unreachable
	 */
	@Override
	public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
		String name = lockConfiguration.getName();
		ShedLockGrant current = this.grants.get(name);
		if (current != null && !current.endIfDue()) {
			return Optional.empty();
		}
		ReleasableLock lock;
		try {
			lock = this.template.acquire(name, LockMode.EXCLUSIVE, Duration.ZERO);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
		if (lock == null) {
			return Optional.empty();
		}
		ShedLockGrant grant = new ShedLockGrant(lock, lockConfiguration, this.timer,
				(ended) -> this.grants.remove(name, ended));
		ShedLockGrant previous = this.grants.put(name, grant);
		if (previous != null) {
			previous.end();
		}
		grant.start();
		return Optional.of(new ZkSimpleLock(lockConfiguration, grant));
	}

	/**
	 * Release the locks this provider holds, also those kept for {@code lockAtLeastFor}, and stop
	 * its timer.
	 */
	@Override
	public void close() {
		this.grants.values().forEach(ShedLockGrant::end);
		this.timer.shutdownNow();
	}

}
