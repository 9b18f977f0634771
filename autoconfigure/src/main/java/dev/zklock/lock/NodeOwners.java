package dev.zklock.lock;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * Makes the data of this instance's lock nodes ({@link NodeOwner}): the participant id of the
 * instance, and the call that asks for a node. The call is the name a template call gives, or,
 * for an annotated method, the bean and method that the advice names on the calling thread while
 * it starts the call ({@link #callingAs}); a reactive call, started on subscription, gives its
 * template name.
 *
 * @since 0.2.0
 */
public final class NodeOwners {

	private static final ThreadLocal<@Nullable String> calling = new ThreadLocal<>();

	private volatile String participant;

	NodeOwners(String participant) {
		this.participant = participant;
	}

	String participant() {
		return this.participant;
	}

	void participant(String participant) {
		this.participant = participant;
	}

	/**
	 * Return the data of a lock node asked for now.
	 */
	byte[] data(@Nullable String call, LockMode mode, Instant asked) {
		return new NodeOwner(this.participant, call, mode, asked).toBytes();
	}

	/**
	 * Name, for the lock nodes' data, the calls this thread starts from now until
	 * {@link #restore}, in place of the name each call gives the template.
	 * @param call what the nodes name as the call, such as {@code StockService#reserve}
	 * @return the name in force before, to give {@link #restore}
	 */
	public static @Nullable String callingAs(String call) {
		@Nullable String outer = calling.get();
		calling.set(call);
		return outer;
	}

	/**
	 * Put back the name in force before {@link #callingAs}.
	 * @param outer what {@link #callingAs} returned
	 */
	public static void restore(@Nullable String outer) {
		if (outer != null) {
			calling.set(outer);
		}
		else {
			calling.remove();
		}
	}

	/**
	 * Return the call to name for a call started on this thread now, and clear the name set by
	 * {@link #callingAs}: it names one call, not the calls its body makes.
	 * @param given the name the call gave the template, if any
	 * @return the name set by {@link #callingAs}, else the given one
	 */
	public static @Nullable String take(@Nullable String given) {
		String named = calling.get();
		if (named != null) {
			calling.remove();
			return named;
		}
		return given;
	}

	/**
	 * Return the call named on this thread now, without clearing it.
	 */
	static @Nullable String call(@Nullable String given) {
		String named = calling.get();
		return (named != null) ? named : given;
	}

}
