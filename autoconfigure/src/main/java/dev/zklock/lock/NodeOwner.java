package dev.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * What a lock node or a leader election node says of the instance that owns it, in the data the
 * node was created with: readable as it is ({@code zkCli.sh get}), UTF-8 text, the participant id
 * on the first line, then one {@code name=value} line a field:
 * <pre>
 * inventory&#64;host-1:4242
 * call=StockService#reserve
 * mode=EXCLUSIVE
 * asked=2026-11-25T16:02:11.123Z
 * </pre>
 * An election node holds the first line alone. Lines of names this version does not know are
 * skipped, so that fields can be added; a node whose data is empty (written by a version before
 * this format) has no owner.
 *
 * @param participant the instance's participant id ({@code <application>@<host>:<pid>} by
 * default, {@code zklock.leader.participant-id} if set)
 * @param call the call that asked for the node (bean and method, or the name a template call
 * gave), or {@code null} when it gave none
 * @param mode the node's mode, or {@code null} for an election node
 * @param asked when the instance asked for the node, or {@code null} for an election node
 * @since 0.2.0
 */
public record NodeOwner(String participant, @Nullable String call, @Nullable LockMode mode, @Nullable Instant asked) {

	private static final String CALL = "call=";

	private static final String MODE = "mode=";

	private static final String ASKED = "asked=";

	/**
	 * Return the data of a node with this owner.
	 * @return the UTF-8 text
	 */
	public byte[] toBytes() {
		StringBuilder text = new StringBuilder(96).append(oneLine(this.participant));
		if (this.call != null) {
			text.append('\n').append(CALL).append(oneLine(this.call));
		}
		if (this.mode != null) {
			text.append('\n').append(MODE).append(this.mode.name());
		}
		if (this.asked != null) {
			text.append('\n').append(ASKED).append(this.asked);
		}
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Read a node's data.
	 * @param data the data, {@code null} if the node had none
	 * @return the owner, or {@code null} when the data names none
	 */
	public static @Nullable NodeOwner parse(byte @Nullable [] data) {
		if (data == null || data.length == 0) {
			return null;
		}
		String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
		if (lines[0].isBlank()) {
			return null;
		}
		String call = null;
		LockMode mode = null;
		Instant asked = null;
		for (int i = 1; i < lines.length; i++) {
			String line = lines[i];
			if (line.startsWith(CALL)) {
				call = line.substring(CALL.length());
			}
			else if (line.startsWith(MODE)) {
				mode = mode(line.substring(MODE.length()));
			}
			else if (line.startsWith(ASKED)) {
				asked = instant(line.substring(ASKED.length()));
			}
		}
		return new NodeOwner(lines[0], call, mode, asked);
	}

	private static @Nullable LockMode mode(String value) {
		for (LockMode mode : LockMode.values()) {
			if (mode.name().equals(value)) {
				return mode;
			}
		}
		return null;
	}

	private static @Nullable Instant instant(String value) {
		try {
			return Instant.parse(value);
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

	private static String oneLine(String value) {
		return value.replace('\n', ' ').replace('\r', ' ');
	}

}
