package dev.zklock.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link JavaProcess}, with real child JVMs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JavaProcessTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final List<AutoCloseable> toClose = new ArrayList<>();

	@AfterEach
	void closeAll() throws Exception {
		for (AutoCloseable closeable : this.toClose) {
			closeable.close();
		}
	}

	@Test
	void capturesStandardOutputAndErrorAndExitCode() {
		JavaProcess process = start(JavaProcess.builder(OutputMain.class)
			.args("3", "hello", "world")
			.systemProperty("zklock.test.greeting", "hi"));
		assertThat(process.waitFor(TIMEOUT)).isEqualTo(3);
		assertThat(process.isAlive()).isFalse();
		assertThat(process.outputText()).contains("out: hello world", "err: hi");
		assertThat(process.output()).exists();
	}

	@Test
	void keepsItsTemporaryFilesWhereThisJvmKeepsItsOwnUnlessToldOtherwise(@TempDir Path folder) {
		JavaProcess inherited = start(JavaProcess.builder(OutputMain.class).args("0"));
		JavaProcess told = start(JavaProcess.builder(OutputMain.class)
			.args("0")
			.systemProperty("java.io.tmpdir", folder.toString()));
		assertThat(inherited.waitFor(TIMEOUT)).isZero();
		assertThat(told.waitFor(TIMEOUT)).isZero();
		assertThat(inherited.outputText()).contains("tmp: " + System.getProperty("java.io.tmpdir"));
		assertThat(told.outputText()).contains("tmp: " + folder);
	}

	@Test
	void appendsToAGivenOutputFileAndReadsOnlyItsOwnOutput(@TempDir Path folder) throws IOException {
		Path output = folder.resolve("logs/app.log");
		JavaProcess first = start(JavaProcess.builder(OutputMain.class).args("0", "first").output(output));
		assertThat(first.waitFor(TIMEOUT)).isZero();
		JavaProcess second = start(JavaProcess.builder(OutputMain.class.getName()).args("0", "second").output(output));
		assertThat(second.waitFor(TIMEOUT)).isZero();
		assertThat(second.output()).isEqualTo(output);
		assertThat(second.outputText()).contains("out: second").doesNotContain("first");
		assertThat(Files.readString(output)).contains("out: first", "out: second");
	}

	@Test
	void awaitOutputReturnsOnceTheOutputMatches() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^tick 5$", TIMEOUT);
		assertThat(process.outputText()).contains("ready", "tick 5");
	}

	@Test
	void awaitOutputFailsWithTheOutputWhenTheProcessExits() {
		JavaProcess process = start(JavaProcess.builder(OutputMain.class).args("0", "bye"));
		assertThatIllegalStateException().isThrownBy(() -> process.awaitOutput("never printed", TIMEOUT))
			.withMessageContaining("exited with code 0")
			.withMessageContaining("out: bye");
	}

	@Test
	void awaitOutputFailsWithTheOutputWhenTheTimePasses() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^ready$", TIMEOUT);
		assertThatIllegalStateException().isThrownBy(() -> process.awaitOutput("never printed", Duration.ofMillis(500)))
			.withMessageContaining("did not print /never printed/ within PT0.5S")
			.withMessageContaining("ready");
		assertThat(process.isAlive()).isTrue();
	}

	@Test
	void killEndsTheProcessWithoutItsShutdownHooks() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^ready$", TIMEOUT);
		process.kill();
		assertThat(process.isAlive()).isFalse();
		assertThat(process.waitFor(TIMEOUT)).isEqualTo(137);
		assertThat(process.outputText()).doesNotContain("shutdown hook ran");
	}

	@Test
	void stopRunsTheShutdownHooks() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^ready$", TIMEOUT);
		process.stop(TIMEOUT);
		assertThat(process.waitFor(TIMEOUT)).isEqualTo(143);
		assertThat(process.outputText()).contains("shutdown hook ran");
	}

	@Test
	void pauseStopsTheProcessUntilResumed() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^tick 2$", TIMEOUT);
		process.pause();
		assertThat(process.isPaused()).isTrue();
		assertThat(process.isAlive()).isTrue();
		assertThat(ProcessSignals.state(process.pid())).contains('T');
		String whilePaused = process.outputText();
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> process.outputText().equals(whilePaused));
		process.resume();
		assertThat(process.isPaused()).isFalse();
		await().atMost(TIMEOUT).until(() -> process.outputText().length() > whilePaused.length());
	}

	@Test
	void stopEndsAPausedProcessGracefully() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^ready$", TIMEOUT);
		process.pause();
		process.stop(TIMEOUT);
		assertThat(process.waitFor(TIMEOUT)).isEqualTo(143);
		assertThat(process.outputText()).contains("shutdown hook ran");
	}

	@Test
	void closeKillsTheProcess() {
		JavaProcess process = start(JavaProcess.builder(TickingMain.class));
		process.awaitOutput("^ready$", TIMEOUT);
		process.close();
		assertThat(process.isAlive()).isFalse();
		assertThat(Processes.isGone(process.pid())).isTrue();
		process.close();
	}

	private JavaProcess start(JavaProcessBuilder builder) {
		JavaProcess process = builder.start();
		this.toClose.add(process);
		return process;
	}

}
