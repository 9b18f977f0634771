package dev.zklock.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the processes started with {@link JavaProcess} and {@link ZooKeeperEnsemble} end
 * when the JVM that started them is killed with {@code SIGKILL}, running or paused.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NoProcessLeftBehindTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void ensembleServersEndWhenTheJvmThatStartedThemIsKilled() throws IOException {
		try (JavaProcess holder = JavaProcess.builder(EnsembleHolderMain.class).start()) {
			holder.awaitOutput("^server pids [0-9 ]+$", Duration.ofSeconds(60));
			List<Long> pids = numbers(holder.outputText(), "^server pids ([0-9 ]+)$");
			try {
				assertThat(pids).hasSize(3);
				for (long pid : pids) {
					ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
					assertThat(server.parent().map(ProcessHandle::pid)).contains(holder.pid());
					assertThat(Processes.commandLine(pid)).contains(EnsembleServer.MAIN_CLASS);
				}
				assertThat(ProcessSignals.state(pids.get(2))).as("server 3 is paused").contains('T');
				holder.kill();
				for (long pid : pids) {
					await("server process " + pid + " to end").atMost(TIMEOUT).until(() -> Processes.isGone(pid));
				}
			}
			finally {
				pids.forEach(Processes::killIfJava);
			}
		}
	}

	@Test
	void childEndsWhenTheJvmThatStartedItIsKilled() {
		assertChildEndsWithItsParent("run");
	}

	@Test
	void pausedChildEndsWhenTheJvmThatStartedItIsKilled() {
		assertChildEndsWithItsParent("pause");
	}

	@Test
	void watchdogHaltsTheJvmWhenStandardInputEnds() throws IOException, InterruptedException {
		// Started without JavaProcess, to close its standard input as a dying parent would.
		Process process = new ProcessBuilder(JavaProcess.builder(TickingMain.class).command())
			.redirectErrorStream(true)
			.start();
		try {
			BufferedReader output = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			assertThat(output.readLine()).isEqualTo("ready");
			process.getOutputStream().close();
			assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).isEqualTo(ParentWatchdog.PARENT_GONE_EXIT_CODE);
		}
		finally {
			process.destroyForcibly();
		}
	}

	private void assertChildEndsWithItsParent(String mode) {
		try (JavaProcess parent = JavaProcess.builder(ParentMain.class).args(mode).start()) {
			parent.awaitOutput("^child pid [0-9]+$", TIMEOUT);
			long pid = numbers(parent.outputText(), "^child pid ([0-9]+)$").get(0);
			try {
				assertThat(Processes.isGone(pid)).isFalse();
				assertThat(ProcessSignals.state(pid).map((state) -> state == 'T')).contains(mode.equals("pause"));
				parent.kill();
				await("child process " + pid + " to end").atMost(TIMEOUT).until(() -> Processes.isGone(pid));
			}
			finally {
				Processes.killIfJava(pid);
			}
		}
	}

	private static List<Long> numbers(String output, String regex) {
		Matcher matcher = Pattern.compile(regex, Pattern.MULTILINE).matcher(output);
		assertThat(matcher.find()).as("output matches /%s/", regex).isTrue();
		return Arrays.stream(matcher.group(1).trim().split(" +")).map(Long::valueOf).toList();
	}

}
