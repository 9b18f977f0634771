package dev.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Objects;

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

	private static final long SECONDS_PER_DAY = 86_400;

	/** The days whose date {@link Instant#toString()} writes as {@code yyyy-mm-dd}. */
	private static final long FIRST_DAY = LocalDate.of(0, 1, 1).toEpochDay();

	private static final long LAST_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

	private volatile String participant;

	private volatile @Nullable OwnerLines lines;

	private volatile @Nullable Day day;

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
	 * Return the data of a lock node asked for now: the text of
	 * {@code new NodeOwner(participant, call, mode, asked).toBytes()}, made from the lines before
	 * {@code asked} of the last call that named the same owner, and the instant written as
	 * {@link Instant#toString()} writes it.
	 */
	byte[] data(@Nullable String call, LockMode mode, Instant asked) {
		String participant = this.participant;
		OwnerLines lines = this.lines;
		if (lines == null || !lines.names(participant, call, mode)) {
			lines = new OwnerLines(participant, call, mode);
			this.lines = lines;
		}
		long epochSecond = asked.getEpochSecond();
		long epochDay = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
		Day day = this.day;
		if (day == null || day.epochDay() != epochDay) {
			if (epochDay < FIRST_DAY || epochDay > LAST_DAY) {
				return new NodeOwner(participant, call, mode, asked).toBytes();
			}
			day = new Day(epochDay, (LocalDate.ofEpochDay(epochDay) + "T").getBytes(StandardCharsets.US_ASCII));
			this.day = day;
		}
		return lines.with(day.text(), (int) Math.floorMod(epochSecond, SECONDS_PER_DAY), asked.getNano());
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

	/**
	 * A day, and its date as the text of an instant starts with it ({@code 2026-11-25T}).
	 */
	private record Day(long epochDay, byte[] text) {
	}

	/**
	 * The lines of a lock node's data before {@code asked}, and the text that writes
	 * {@code asked} after them.
	 */
	private static final class OwnerLines {

		private static final byte[] ASKED = "\nasked=".getBytes(StandardCharsets.US_ASCII);

		private final String participant;

		private final @Nullable String call;

		private final LockMode mode;

		private final byte[] head;

		OwnerLines(String participant, @Nullable String call, LockMode mode) {
			this.participant = participant;
			this.call = call;
			this.mode = mode;
			byte[] lines = new NodeOwner(participant, call, mode, null).toBytes();
			this.head = Arrays.copyOf(lines, lines.length + ASKED.length);
			System.arraycopy(ASKED, 0, this.head, lines.length, ASKED.length);
		}

		boolean names(String participant, @Nullable String call, LockMode mode) {
			return this.participant.equals(participant) && Objects.equals(this.call, call) && this.mode == mode;
		}

		/**
		 * Return the data with {@code asked} written after the date: {@code hh:mm:ss}, the
		 * fraction in groups of three digits as many as it needs (none when it is zero), and
		 * {@code Z}.
		 */
		byte[] with(byte[] date, int secondOfDay, int nano) {
			int digits = (nano == 0) ? 0 : (nano % 1_000_000 == 0) ? 3 : (nano % 1_000 == 0) ? 6 : 9;
			byte[] data = Arrays.copyOf(this.head, this.head.length + date.length + 8 + ((digits > 0) ? digits + 1 : 0) + 1);
			int at = this.head.length;
			System.arraycopy(date, 0, data, at, date.length);
			at += date.length;
			at = twoDigits(data, at, secondOfDay / 3600);
			data[at++] = ':';
			at = twoDigits(data, at, (secondOfDay / 60) % 60);
			data[at++] = ':';
			at = twoDigits(data, at, secondOfDay % 60);
			if (digits > 0) {
				data[at++] = '.';
				int fraction = nano;
				for (int i = 9; i > digits; i--) {
					fraction /= 10;
				}
				for (int i = at + digits - 1; i >= at; i--) {
					data[i] = (byte) ('0' + fraction % 10);
					fraction /= 10;
				}
				at += digits;
			}
			data[at] = 'Z';
			return data;
		}

		private static int twoDigits(byte[] data, int at, int value) {
			data[at] = (byte) ('0' + value / 10);
			data[at + 1] = (byte) ('0' + value % 10);
			return at + 2;
		}

	}

}
