package dev.zklock.lock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one side of a conformance script let the lock core observe, in the script's order, written
 * so that the simulator's transcript and a real server's can be compared line by line: zxids as
 * offsets from the first zxid the script saw (their order, their equality and the number of
 * transactions between them, never their absolute value), session ids as the name of the client
 * that has the session, protected-mode ids as placeholders numbered in order of appearance, and
 * sequence suffixes as they are.
 */
final class ConformanceTranscript {

	private static final Pattern ZXID = Pattern.compile("\\{z:(-?\\d+)}");

	private static final Pattern SESSION = Pattern.compile("\\{s:(-?\\d+)}");

	private static final Pattern PROTECTED_ID = Pattern
		.compile("_c_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-");

	private final List<Line> lines = new ArrayList<>();

	private final Map<Long, String> sessions = new HashMap<>();

	synchronized Line add(String text) {
		Line line = new Line(text);
		this.lines.add(line);
		return line;
	}

	synchronized void session(long id, String name) {
		this.sessions.put(id, name);
	}

	static String zxid(long zxid) {
		return "{z:" + zxid + "}";
	}

	static String session(long id) {
		return "{s:" + id + "}";
	}

	/**
	 * Return the normalised lines.
	 */
	synchronized List<String> lines() {
		List<String> raw = new ArrayList<>();
		for (Line line : this.lines) {
			raw.add(line.text + ((line.outcome != null) ? " -> " + line.outcome : " -> (no reply)"));
		}
		Long base = null;
		Map<String, String> ids = new LinkedHashMap<>();
		List<String> normalised = new ArrayList<>();
		for (String text : raw) {
			Matcher zxids = ZXID.matcher(text);
			StringBuilder out = new StringBuilder();
			while (zxids.find()) {
				long zxid = Long.parseLong(zxids.group(1));
				if (base == null) {
					base = zxid;
				}
				long offset = zxid - base;
				zxids.appendReplacement(out, (offset >= 0) ? "z+" + offset : "z" + offset);
			}
			zxids.appendTail(out);
			Matcher owners = SESSION.matcher(out.toString());
			out = new StringBuilder();
			while (owners.find()) {
				long id = Long.parseLong(owners.group(1));
				String name = (id == 0) ? "none" : this.sessions.getOrDefault(id, "unknown session");
				owners.appendReplacement(out, Matcher.quoteReplacement(name));
			}
			owners.appendTail(out);
			Matcher protectedIds = PROTECTED_ID.matcher(out.toString());
			out = new StringBuilder();
			while (protectedIds.find()) {
				String placeholder = ids.computeIfAbsent(protectedIds.group(1), (id) -> "<id" + (ids.size() + 1) + ">");
				protectedIds.appendReplacement(out, "_c_" + placeholder + "-");
			}
			protectedIds.appendTail(out);
			normalised.add(out.toString());
		}
		return normalised;
	}

	/**
	 * One request and what came back.
	 */
	static final class Line {

		private final String text;

		private volatile String outcome;

		Line(String text) {
			this.text = text;
		}

		void outcome(String outcome) {
			this.outcome = outcome;
		}

	}

}
