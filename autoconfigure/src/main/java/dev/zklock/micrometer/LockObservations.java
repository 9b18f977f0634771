package dev.zklock.micrometer;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.lock.AcquisitionOutcome;
import dev.zklock.lock.FencingTokens;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;

/**
 * Observations of the calls of a {@link dev.zklock.ZkLockTemplate}, so that traces show lock
 * waits and locked calls as spans: {@value #ACQUIRE} around the wait for the locks, then
 * {@value #CALL} around the work done holding them (its scope is open meanwhile, so the work's
 * own observations are its children).
 * <p>
 * Low-cardinality key values: {@code zklock.lock.mode}, and {@code zklock.lock.outcome} on
 * {@value #ACQUIRE}. High-cardinality ones: {@code zklock.lock.keys},
 * {@code zklock.lock.name} (the key expression of a {@code @ZkLocked} method) and, on
 * {@value #CALL}, {@code zklock.lock.fencing-token}.
 *
 * @since 0.1.0
 */
public final class LockObservations implements LockCallListener {

	/**
	 * Name of the observation of a lock wait.
	 */
	public static final String ACQUIRE = "zklock.lock.acquire";

	/**
	 * Name of the observation of a locked call.
	 */
	public static final String CALL = "zklock.lock.call";

	static final String MODE = "zklock.lock.mode";

	static final String OUTCOME = "zklock.lock.outcome";

	static final String KEYS = "zklock.lock.keys";

	static final String NAME = "zklock.lock.name";

	static final String FENCING_TOKEN = "zklock.lock.fencing-token";

	private final ObservationRegistry registry;

	/**
	 * Create observations of lock calls.
	 * @param registry where the observations are made
	 */
	public LockObservations(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
		if (this.registry.isNoop()) {
			return LockCall.NONE;
		}
		ObservedCall call = new ObservedCall(this.registry, name, keys, mode);
		call.acquisition.start();
		return call;
	}

	private static String lowerCase(Enum<?> value) {
		return value.name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The two observations of one call.
	 */
	private static final class ObservedCall implements LockCall {

		private final ObservationRegistry registry;

		private final @Nullable String name;

		private final String keys;

		private final String mode;

		private final Observation acquisition;

		private @Nullable Observation call;

		private Observation.@Nullable Scope scope;

		private @Nullable HeldLock untaggedLock;

		ObservedCall(ObservationRegistry registry, @Nullable String name, List<String> keys, LockMode mode) {
			this.registry = registry;
			this.name = name;
			this.keys = String.join(",", keys);
			this.mode = lowerCase(mode);
			this.acquisition = describe(Observation.createNotStarted(ACQUIRE, registry))
				.contextualName("zklock acquire");
		}

		@Override
		public void acquired(HeldLock lock) {
			this.acquisition.lowCardinalityKeyValue(OUTCOME, lowerCase(AcquisitionOutcome.ACQUIRED)).stop();
			// The token only if known for free: a handed-off call pays a write for it when it asks.
			OptionalLong token = FencingTokens.known(lock);
			Observation call = describe(Observation.createNotStarted(CALL, this.registry))
				.contextualName("zklock locked");
			if (token.isPresent()) {
				call.highCardinalityKeyValue(FENCING_TOKEN, Long.toString(token.getAsLong()));
			}
			else {
				this.untaggedLock = lock;
			}
			call.start();
			this.call = call;
			this.scope = call.openScope();
		}

		@Override
		public void notAcquired(AcquisitionOutcome outcome, @Nullable Throwable error) {
			if (error != null) {
				this.acquisition.error(error);
			}
			this.acquisition.lowCardinalityKeyValue(OUTCOME, lowerCase(outcome)).stop();
		}

		@Override
		public void detached() {
			Observation.Scope scope = this.scope;
			this.scope = null;
			if (scope != null) {
				scope.close();
			}
		}

		@Override
		public void ended(@Nullable Throwable error) {
			Observation call = this.call;
			if (call == null) {
				return;
			}
			detached();
			HeldLock untagged = this.untaggedLock;
			if (untagged != null) {
				FencingTokens.known(untagged)
					.ifPresent((token) -> call.highCardinalityKeyValue(FENCING_TOKEN, Long.toString(token)));
			}
			if (error != null) {
				call.error(error);
			}
			call.stop();
		}

		private Observation describe(Observation observation) {
			observation.lowCardinalityKeyValue(MODE, this.mode).highCardinalityKeyValue(KEYS, this.keys);
			if (this.name != null) {
				observation.highCardinalityKeyValue(NAME, this.name);
			}
			return observation;
		}

	}

}
