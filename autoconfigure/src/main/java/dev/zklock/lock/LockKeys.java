package dev.zklock.lock;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Turns lock keys into ZooKeeper node names and back. Any string is a valid key: bytes outside a
 * small safe set, including {@code /} and the characters ZooKeeper rejects in node names, are
 * percent-encoded as UTF-8, and the names {@code .} and {@code ..} are encoded in full, so the
 * mapping is reversible.
 */
public final class LockKeys {

	private static final String SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~:@!$'()*+,;=&";

	private static final char[] HEX = "0123456789ABCDEF".toCharArray();

	private LockKeys() {
	}

	/**
	 * Return the node name for a key.
	 * @param key the key, not empty
	 * @return the node name
	 */
	public static String encode(String key) {
		if (key.isEmpty()) {
			throw new IllegalArgumentException("A lock key must not be empty");
		}
		boolean onlyDots = key.equals(".") || key.equals("..");
		StringBuilder name = new StringBuilder(key.length() + 8);
		for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
			int c = b & 0xFF;
			if (!onlyDots && c < 0x80 && SAFE.indexOf(c) >= 0) {
				name.append((char) c);
			}
			else {
				name.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
			}
		}
		return name.toString();
	}

	/**
	 * Return the key for a node name made by {@link #encode(String)}.
	 * @param name the node name
	 * @return the key
	 */
	public static String decode(String name) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(name.length());
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c == '%' && i + 2 < name.length()) {
				bytes.write(Integer.parseInt(name, i + 1, i + 3, 16));
				i += 2;
			}
			else {
				bytes.write(c);
			}
		}
		return bytes.toString(StandardCharsets.UTF_8);
	}

	/**
	 * Return the keys in the one global order every caller locks them in: sorted, without
	 * duplicates.
	 * @param keys the keys
	 * @return the ordered keys
	 * @throws IllegalArgumentException if there is no key, or a key is null or empty
	 */
	public static List<String> ordered(Collection<String> keys) {
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("At least one lock key is required");
		}
		for (String key : keys) {
			if (key == null || key.isEmpty()) {
				throw new IllegalArgumentException("A lock key must not be null or empty, but got " + keys);
			}
		}
		if (keys.size() == 1) {
			// The common call, one key: nothing to sort.
			return List.of(keys.iterator().next());
		}
		return new ArrayList<>(new TreeSet<>(keys));
	}

}
