package dev.zklock.benchmarks.report;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * {@link CpuAccount} tells the processor time of other processes from the run's own: a busy
 * loop that is not a descendant of this JVM counts, one that is does not. Each loop is a
 * shell that spins for two seconds and ends by itself.
 */
class CpuAccountTests {

	private static final String SPIN = "end=$(( $(date +%s) + 2 )); while [ $(date +%s) -lt $end ]; do :; done";

	@Test
	void aBusyProcessOutsideTheRunCountsAsOther() throws Exception {
		CpuAccount before = CpuAccount.read();
		assumeThat(before.isKnown()).as("/proc readable (Linux)").isTrue();
		// started in the background by a shell that exits at once: the loop is orphaned, no
		// descendant of this JVM, like a process some other program started
		run("(" + SPIN + ") > /dev/null 2>&1 &");
		TimeUnit.MILLISECONDS.sleep(2500);
		double other = CpuAccount.read().otherProcessors(before);
		assertThat(other).as("processors used by the orphaned busy loop").isGreaterThan(0.5);
	}

	@Test
	void aBusyProcessOfTheRunDoesNotCount() throws Exception {
		CpuAccount before = CpuAccount.read();
		assumeThat(before.isKnown()).as("/proc readable (Linux)").isTrue();
		run(SPIN);
		double other = CpuAccount.read().otherProcessors(before);
		assertThat(other).as("processors used by others while this JVM's child spun").isLessThan(0.5);
	}

	private static void run(String script) throws Exception {
		Process process = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
		process.getOutputStream().close();
		assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
	}

}
