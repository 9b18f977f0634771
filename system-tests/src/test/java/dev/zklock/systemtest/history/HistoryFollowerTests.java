package dev.zklock.systemtest.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HistoryFollower}.
 */
class HistoryFollowerTests {

	@TempDir
	Path folder;

	@Test
	void readsOnlyTheLinesCompletedSinceTheLastPollFromEveryFileCreatedSoFar() throws IOException {
		HistoryFollower follower = new HistoryFollower(this.folder);
		assertThat(follower.poll()).isEmpty();
		Operation first = op("p1", 10);
		Operation second = op("p1", 20);
		Operation other = op("p2", 5);
		Path file = this.folder.resolve("p1.jsonl");
		try (HistoryWriter writer = HistoryWriter.open(file)) {
			writer.append(first);
		}
		String line = HistoryFormat.write(second);
		Files.writeString(file, line.substring(0, 10), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		assertThat(follower.poll()).containsExactly(first);
		Files.writeString(file, line.substring(10) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		try (HistoryWriter writer = HistoryWriter.open(this.folder.resolve("p2.jsonl"))) {
			writer.append(other);
		}
		assertThat(follower.poll()).containsExactly(second, other);
		assertThat(follower.poll()).isEmpty();
		assertThat(follower.history().operations()).containsExactly(other, first, second);
		assertThat(follower.history().damagedLines()).isEmpty();
	}

	@Test
	void aLineCutByAKillAndEndedByTheRestartedProcessIsDamaged() throws IOException {
		Path file = this.folder.resolve("p1.jsonl");
		Files.writeString(file, HistoryFormat.write(op("p1", 10)).substring(0, 15), StandardCharsets.UTF_8);
		HistoryFollower follower = new HistoryFollower(this.folder);
		assertThat(follower.poll()).isEmpty();
		try (HistoryWriter writer = HistoryWriter.open(file)) {
			writer.append(op("p1", 30));
		}
		assertThat(follower.poll()).containsExactly(op("p1", 30));
		assertThat(follower.history().damagedLines()).singleElement().asString().startsWith(file + ":1: ");
	}

	private static Operation op(String process, long start) {
		return Operation.of(process, OpKind.EXCLUSIVE_INCREMENT, "counter", start, start + 1, start, Outcome.OK);
	}

}
