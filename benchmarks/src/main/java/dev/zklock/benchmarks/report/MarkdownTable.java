package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A Markdown table, built row by row.
 */
final class MarkdownTable {

	private final List<String> header;

	private final List<List<String>> rows = new ArrayList<>();

	MarkdownTable(List<String> header) {
		this.header = List.copyOf(header);
	}

	void row(List<String> cells) {
		if (cells.size() != this.header.size()) {
			throw new IllegalArgumentException("Expected " + this.header.size() + " cells, got " + cells);
		}
		this.rows.add(List.copyOf(cells));
	}

	boolean isEmpty() {
		return this.rows.isEmpty();
	}

	void appendTo(StringBuilder out) {
		line(out, this.header);
		line(out, this.header.stream().map((cell) -> "---").toList());
		this.rows.forEach((row) -> line(out, row));
		out.append('\n');
	}

	private static void line(StringBuilder out, List<String> cells) {
		out.append("| ").append(String.join(" | ", cells.stream().map((cell) -> cell.replace("|", "\\|")).toList()))
			.append(" |\n");
	}

}
