package dev.zklock.systemtest.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HistoryWriter} and {@link HistoryReader}.
 */
class HistoryTests {

	@TempDir
	Path folder;

	@Test
	void writesOneJsonLinePerOperationLeavingOutWhatIsMissing() throws IOException {
		Path file = this.folder.resolve("p1.jsonl");
		try (HistoryWriter writer = HistoryWriter.open(file)) {
			writer.append(Operation.of("p1", OpKind.EXCLUSIVE_INCREMENT, "counter", 100, 120, 42L, Outcome.OK).withValue(7));
			writer.append(Operation.of("p1", OpKind.SHARED_READ, "mix", 130, 131, null, Outcome.TIMEOUT));
		}
		assertThat(Files.readAllLines(file)).containsExactly(
				"{\"process\":\"p1\",\"kind\":\"excl-incr\",\"key\":\"counter\",\"start\":100,\"end\":120,\"token\":42,\"outcome\":\"ok\",\"value\":7}",
				"{\"process\":\"p1\",\"kind\":\"shared-read\",\"key\":\"mix\",\"start\":130,\"end\":131,\"outcome\":\"timeout\"}");
	}

	@Test
	void readsBackWhatWasWritten() {
		List<Operation> written = List.of(
				Operation.of("p1", OpKind.EXCLUSIVE_INCREMENT, "counter", 100, 120, 42L, Outcome.FENCED).withDetail("fence 43"),
				Operation.event("p1", OpKind.LEADER_GRANTED, "ticker", 90, 5),
				Operation.of("p1", OpKind.LEADER_TICK, "ticker", 95, 96, 5L, Outcome.LOCK_LOST));
		try (HistoryWriter writer = HistoryWriter.open(this.folder.resolve("p1.jsonl"))) {
			written.forEach(writer::append);
		}
		History history = HistoryReader.read(this.folder);
		assertThat(history.operations()).containsExactly(written.get(1), written.get(2), written.get(0));
		assertThat(history.damagedLines()).isEmpty();
	}

	@Test
	void keepsTheMonotonicTimeOfTheCallBeforeItsGrant() throws IOException {
		Operation written = Operation.of("p1", OpKind.EXCLUSIVE_INCREMENT, "mix", 100, 120, 42L, Outcome.OK)
			.withNanos(5_000, 25_000)
			.withCalledNanos(1_000);
		try (HistoryWriter writer = HistoryWriter.open(this.folder.resolve("p1.jsonl"))) {
			writer.append(written);
		}
		assertThat(Files.readString(this.folder.resolve("p1.jsonl")))
			.contains("\"startNanos\":5000,\"endNanos\":25000,\"calledNanos\":1000}");
		assertThat(HistoryReader.read(this.folder).operations()).containsExactly(written);
	}

	@Test
	void anOperationGrantedBeforeItsCallIsDamaged() throws IOException {
		Files.writeString(this.folder.resolve("p1.jsonl"),
				"{\"process\":\"p1\",\"kind\":\"excl-incr\",\"key\":\"k\",\"start\":10,\"end\":20,\"outcome\":\"ok\","
						+ "\"startNanos\":5,\"endNanos\":6,\"calledNanos\":7}\n");
		assertThat(HistoryReader.read(this.folder).damagedLines()).singleElement()
			.asString()
			.contains("before its call");
	}

	@Test
	void mergesTheFilesOfEveryProcessByStartTime() {
		try (HistoryWriter one = HistoryWriter.open(this.folder.resolve("runs/p1.jsonl"));
				HistoryWriter two = HistoryWriter.open(this.folder.resolve("runs/p2.jsonl"))) {
			one.append(op("p1", 10));
			two.append(op("p2", 5));
			one.append(op("p1", 30));
			two.append(op("p2", 20));
		}
		assertThat(HistoryReader.read(this.folder.resolve("runs")).operations()).extracting(Operation::start)
			.containsExactly(5L, 10L, 20L, 30L);
	}

	@Test
	void ignoresOtherFiles() throws IOException {
		Files.writeString(this.folder.resolve("p1.log"), "not a history\n");
		assertThat(HistoryReader.read(this.folder)).isEqualTo(History.of(List.of()));
	}

	@Test
	void aLineCutByAKillIsCountedAsDamagedAndARestartedProcessWritesOnANewLine() throws IOException {
		Path file = this.folder.resolve("p1.jsonl");
		try (HistoryWriter writer = HistoryWriter.open(file)) {
			writer.append(op("p1", 10));
		}
		Files.writeString(file, "{\"process\":\"p1\",\"ki", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		try (HistoryWriter restarted = HistoryWriter.open(file)) {
			restarted.append(op("p1", 50));
		}
		History history = HistoryReader.read(this.folder);
		assertThat(history.operations()).extracting(Operation::start).containsExactly(10L, 50L);
		assertThat(history.damagedLines()).singleElement().asString().contains("p1.jsonl:2: ");
	}

	@Test
	void anOperationEndingBeforeItStartsIsDamaged() throws IOException {
		Files.writeString(this.folder.resolve("p1.jsonl"),
				"{\"process\":\"p1\",\"kind\":\"excl-incr\",\"key\":\"k\",\"start\":20,\"end\":10,\"outcome\":\"ok\"}\n");
		assertThat(HistoryReader.read(this.folder).damagedLines()).singleElement().asString().contains("before it starts");
	}

	@Test
	void concurrentAppendsKeepWholeLines() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try (HistoryWriter writer = HistoryWriter.open(this.folder.resolve("p1.jsonl"))) {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				int thread = t;
				done.add(threads.submit(() -> {
					for (int n = 0; n < 250; n++) {
						writer.append(op("p1", thread * 1000 + n).withDetail("x".repeat(500)));
					}
				}));
			}
			for (Future<?> thread : done) {
				thread.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		History history = HistoryReader.read(this.folder);
		assertThat(history.operations()).hasSize(1000);
		assertThat(history.damagedLines()).isEmpty();
	}

	private static Operation op(String process, long start) {
		return Operation.of(process, OpKind.EXCLUSIVE_INCREMENT, "counter", start, start + 1, start, Outcome.OK);
	}

}
