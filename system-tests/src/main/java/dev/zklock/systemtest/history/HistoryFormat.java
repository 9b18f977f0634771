package dev.zklock.systemtest.history;

import tools.jackson.databind.json.JsonMapper;

/**
 * The line format of history files: one {@link Operation} as JSON per line.
 */
final class HistoryFormat {

	private static final JsonMapper mapper = JsonMapper.builder().build();

	private HistoryFormat() {
	}

	static String write(Operation operation) {
		return mapper.writeValueAsString(operation);
	}

	static Operation read(String line) {
		return mapper.readValue(line, Operation.class);
	}

}
