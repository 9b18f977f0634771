package dev.zklock.systemtest.app;

import java.io.UncheckedIOException;
import java.time.Duration;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockContext;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.systemtest.register.FencedRegisterClient;
import dev.zklock.systemtest.register.RegisterState;

/**
 * The locked operations of the workload: each uses the register of the same name as its lock
 * key, passing the lock's fencing token with every read and write. An increment also increments
 * the register's unfenced shadow ({@link RegisterState#unfenced(String)}), which only the lock
 * protects: its lost updates measure what the lock alone guarantees.
 */
public class RegisterWork {

	private final FencedRegisterClient register;

	private final Duration workTime;

	RegisterWork(FencedRegisterClient register, Duration workTime) {
		this.register = register;
		this.workTime = workTime;
	}

	/**
	 * Read the register and write it back plus one, holding the key's lock exclusively, with
	 * half the work time between the read and the write and half after the write. The unfenced
	 * shadow is read before and written before the fenced register, so that a holder whose lock
	 * was taken over while it worked still writes it.
	 * @param key the lock key and register name
	 * @param attempt where to record what the locked code saw
	 * @return the value written
	 */
	@ZkLocked(key = "#key", waitTime = "${systemtest.lock-wait:2s}")
	public long increment(String key, Attempt attempt) {
		HeldLock lock = ZkLockContext.current();
		attempt.begin(lock.fencingToken());
		try {
			long shadow = this.register.unfencedRead(RegisterState.unfenced(key));
			long value = this.register.read(key, lock.fencingToken());
			work(this.workTime.dividedBy(2));
			this.register.unfencedWrite(RegisterState.unfenced(key), shadow + 1);
			this.register.write(key, lock.fencingToken(), value + 1);
			attempt.value(value + 1);
			work(this.workTime.dividedBy(2));
			return value + 1;
		}
		catch (UncheckedIOException ex) {
			throw lostOr(lock, ex);
		}
		finally {
			attempt.finish();
		}
	}

	/**
	 * Read the register holding the key's lock shared.
	 * @param key the lock key and register name
	 * @param attempt where to record what the locked code saw
	 * @return the value read
	 */
	@ZkLocked(key = "#key", mode = LockMode.SHARED, waitTime = "${systemtest.lock-wait:2s}")
	public long read(String key, Attempt attempt) {
		HeldLock lock = ZkLockContext.current();
		attempt.begin(lock.fencingToken());
		try {
			long value = this.register.sharedRead(key, lock.fencingToken());
			attempt.value(value);
			work(this.workTime);
			return value;
		}
		catch (UncheckedIOException ex) {
			throw lostOr(lock, ex);
		}
		finally {
			attempt.finish();
		}
	}

	/**
	 * Say why a register call failed: a request in flight while the process was frozen times out,
	 * and if the lock went meanwhile, the operation lost its lock. With the lock still valid, the
	 * failure stands (the checker reports an error inside a critical section).
	 */
	private static RuntimeException lostOr(HeldLock lock, UncheckedIOException ex) {
		if (!lock.isValid()) {
			return new LockLostException(lock.key(), "the register call failed and the lock was lost meanwhile", ex);
		}
		return ex;
	}

	private static void work(Duration time) {
		try {
			Thread.sleep(time.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while working under the lock", ex);
		}
	}

}
