package dev.zklock;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.zklock.support.CallContext;
import dev.zklock.support.ReactiveCalls;

/**
 * Runs reactive work while holding ZooKeeper locks: the reactive form of {@link ZkLockTemplate},
 * on the same engine and with the same semantics, for applications that use Project Reactor.
 * <ul>
 * <li>Nothing happens until a subscription. On subscription, the locks are asked for without
 * blocking; once held, the work's publisher is subscribed (on the template's executor, never
 * on a ZooKeeper thread).
 * <li>The locks are released when the work completes, fails, or is cancelled; on completion the
 * locks are checked first, and a lock lost or in doubt ends the sequence with
 * {@link LockLostException} instead of completing it. A subscriber that cancels as the locks
 * are granted, before the work is subscribed, has them released at once; the work does not run.
 * <li>Inside the work, {@link ReactiveZkLockContext#current()} gives the held lock from the
 * Reactor context (key, mode, fencing token, validity); the work's function is also given it.
 * {@link ZkLockContext} sees it too while the work's function runs and while its publisher is
 * subscribed, and, with Reactor's automatic context propagation, in the pipeline's operators;
 * never once the locks are being released.
 * <li>Not obtained in time: an error signal with {@link LockTimeoutException}, or what the
 * {@code onTimeout} publisher emits.
 * </ul>
 *
 * @since 0.1.0
 */
public class ReactiveZkLockTemplate {

	private final ZkLockTemplate template;

	/**
	 * Create a reactive template on a template's engine and executor.
	 * @param template the template
	 */
	public ReactiveZkLockTemplate(ZkLockTemplate template) {
		this.template = template;
	}

	/**
	 * Run the work holding the key's lock exclusively, waiting up to the default wait time.
	 * @param key the key
	 * @param work makes the work's publisher, given the held lock
	 * @return what the work emits
	 */
	public <T> Flux<T> execute(String key, Function<HeldLock, ? extends Publisher<T>> work) {
		return execute(List.of(key), LockMode.EXCLUSIVE, null, work);
	}

	/**
	 * Run the work holding the locks of every key.
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param work makes the work's publisher, given the held lock (the innermost)
	 * @return what the work emits, or an error with {@link LockTimeoutException}
	 */
	public <T> Flux<T> execute(Collection<String> keys, LockMode mode, @Nullable Duration waitTime,
			Function<HeldLock, ? extends Publisher<T>> work) {
		return executeOrElse(null, keys, mode, waitTime, work, () -> Flux.error(timeout(keys, waitTime)));
	}

	/**
	 * Run the work holding the locks of every key, or emit what {@code onTimeout} emits when they
	 * are not obtained in time.
	 * @param name what the call locks as the code names it, for metrics and traces; {@code null}
	 * for none
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param work makes the work's publisher, given the held lock (the innermost)
	 * @param onTimeout makes the publisher used when the locks were not obtained in time: one
	 * that completes (the call counts as skipped) or fails (timed out)
	 * @return what the work emits, or what {@code onTimeout} emits
	 */
	public <T> Flux<T> executeOrElse(@Nullable String name, Collection<String> keys, LockMode mode,
			@Nullable Duration waitTime, Function<HeldLock, ? extends Publisher<T>> work,
			Supplier<? extends Publisher<T>> onTimeout) {
		return Flux.usingWhen(lease(name, keys, mode, waitTime), (lease) -> {
			if (!lease.take()) {
				// Dropped: the subscriber cancelled first, and the drop released the locks.
				return Flux.empty();
			}
			return lease.isHeld() ? run(lease, work) : Flux.from(fallback(lease, onTimeout));
		}, ReactiveZkLockTemplate::complete, ReactiveZkLockTemplate::failed, ReactiveZkLockTemplate::cancelled);
	}

	/**
	 * Run the work of a {@link Mono} holding the locks of every key.
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param work makes the work's {@code Mono}, given the held lock (the innermost)
	 * @return the work's value, or an error with {@link LockTimeoutException}
	 */
	public <T> Mono<T> executeMono(Collection<String> keys, LockMode mode, @Nullable Duration waitTime,
			Function<HeldLock, ? extends Mono<T>> work) {
		return executeMonoOrElse(null, keys, mode, waitTime, work, () -> Mono.error(timeout(keys, waitTime)));
	}

	/**
	 * Run the work of a {@link Mono} holding the locks of every key, or give what
	 * {@code onTimeout} gives when they are not obtained in time.
	 * @param name what the call locks as the code names it, for metrics and traces; {@code null}
	 * for none
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param work makes the work's {@code Mono}, given the held lock (the innermost)
	 * @param onTimeout makes the {@code Mono} used when the locks were not obtained in time
	 * @return the work's value, or {@code onTimeout}'s
	 */
	public <T> Mono<T> executeMonoOrElse(@Nullable String name, Collection<String> keys, LockMode mode,
			@Nullable Duration waitTime, Function<HeldLock, ? extends Mono<T>> work,
			Supplier<? extends Mono<T>> onTimeout) {
		return Mono.usingWhen(lease(name, keys, mode, waitTime), (lease) -> {
			if (!lease.take()) {
				// Dropped: the subscriber cancelled first, and the drop released the locks.
				return Mono.empty();
			}
			return lease.isHeld() ? run(lease, work).singleOrEmpty() : Mono.from(fallback(lease, onTimeout));
		}, ReactiveZkLockTemplate::complete, ReactiveZkLockTemplate::failed, ReactiveZkLockTemplate::cancelled);
	}

	private Mono<LockLease> lease(@Nullable String name, Collection<String> keys, LockMode mode,
			@Nullable Duration waitTime) {
		// On the template's executor even when the lease is complete at subscription: the work
		// is subscribed there, never on the subscriber's thread or a ZooKeeper thread.
		// A cancel before usingWhen has the lease would lose it (Reactor discards a value that
		// arrives after a cancel, or that waits for its hop to the executor), so the cancel is
		// ours: it withdraws the call, or drops the lease it was granted. The work takes the
		// lease, or the drop does, never both (a cancel racing the hop may find it taken).
		return Mono.defer(() -> {
			CompletableFuture<LockLease> leasing = this.template.lease(name, keys, mode, waitTime);
			return Mono.fromFuture(leasing, true)
				.publishOn(Schedulers.fromExecutor(this.template.asyncExecutor()))
				.doOnCancel(() -> abandon(leasing));
		});
	}

	private static void abandon(CompletableFuture<LockLease> leasing) {
		leasing.cancel(false);
		leasing.thenAccept(LockLease::drop);
	}

	private static <T> Flux<T> run(LockLease lease, Function<HeldLock, ? extends Publisher<T>> work) {
		HeldLock lock = lease.lock();
		Publisher<T> publisher;
		lease.call().acquired(lock);
		@Nullable CallContext outer = CallContext.enter(lease.scope());
		try {
			publisher = work.apply(lock);
		}
		catch (RuntimeException | Error ex) {
			publisher = Flux.error(ex);
		}
		finally {
			CallContext.set(outer);
			lease.call().detached();
		}
		// The locks are checked before the work's completion goes downstream: lost, it ends with
		// LockLostException instead (and the locks are released as after any error).
		Mono<T> check = Mono.fromFuture(lease::checkHeld, true)
			.flatMap((lost) -> Mono.error(lost));
		return ReactiveCalls.inScope(publisher, lease.scope()).concatWith(check);
	}

	private static <T> Publisher<T> fallback(LockLease lease, Supplier<? extends Publisher<T>> onTimeout) {
		return Flux.defer(onTimeout).doOnError(lease::notHeld).doOnComplete(() -> lease.notHeld(null));
	}

	private static Publisher<?> complete(LockLease lease) {
		return heldByWork(lease) ? Mono.fromFuture(lease.end(null), true) : Mono.empty();
	}

	private static Publisher<?> failed(LockLease lease, Throwable error) {
		return heldByWork(lease) ? Mono.fromFuture(lease.end(error), true).onErrorResume((ex) -> Mono.empty())
				: Mono.empty();
	}

	private static Publisher<?> cancelled(LockLease lease) {
		return heldByWork(lease)
				? Mono.fromFuture(lease.end(new CancellationException("The subscriber cancelled")), true)
					.onErrorResume((ex) -> Mono.empty())
				: Mono.empty();
	}

	/**
	 * Return whether the work holds the lease's locks, which its end releases (a lease dropped
	 * was released by its drop).
	 */
	private static boolean heldByWork(LockLease lease) {
		return lease.isHeld() && lease.isTaken();
	}

	private LockTimeoutException timeout(Collection<String> keys, @Nullable Duration waitTime) {
		return this.template.timeout(keys, waitTime);
	}

}
