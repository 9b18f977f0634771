package dev.zklock.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded server's temporary data folder: removed when the server stops, and, when its
 * process was killed before it could remove it, by the next embedded server to start.
 */
class EmbeddedServerTemporaryFolderTests {

	private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

	@Test
	void aFolderLeftByAKilledProcessIsRemovedAtTheNextStart() throws Exception {
		Process ended = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-version")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		assertThat(ended.waitFor(30, TimeUnit.SECONDS)).isTrue();
		Path left = Files.createTempDirectory(TMP, EmbeddedZooKeeperServer.TEMPORARY_PREFIX + ended.pid() + "-");
		Files.writeString(left.resolve("myid"), "left behind");
		Path alive = Files.createTempDirectory(TMP,
				EmbeddedZooKeeperServer.TEMPORARY_PREFIX + ProcessHandle.current().pid() + "-");
		try {
			EmbeddedZooKeeperServer server = new EmbeddedZooKeeperServer(0, null);
			File own = server.getDataDir();
			try {
				assertThat(left).doesNotExist();
				assertThat(alive).as("a folder of a running process").exists();
				assertThat(own.getName()).startsWith(EmbeddedZooKeeperServer.TEMPORARY_PREFIX
						+ ProcessHandle.current().pid() + "-");
			}
			finally {
				server.destroy();
			}
			assertThat(own).doesNotExist();
		}
		finally {
			delete(left);
			delete(alive);
		}
	}

	@Test
	void foldersOfOtherNamesAreNotTakenForLeftOnes() {
		assertThat(EmbeddedZooKeeperServer.leftByAnEndedProcess(EmbeddedZooKeeperServer.TEMPORARY_PREFIX + "x-1"))
			.isFalse();
		assertThat(EmbeddedZooKeeperServer.leftByAnEndedProcess(EmbeddedZooKeeperServer.TEMPORARY_PREFIX + "123"))
			.isFalse();
		assertThat(EmbeddedZooKeeperServer.leftByAnEndedProcess(
				EmbeddedZooKeeperServer.TEMPORARY_PREFIX + ProcessHandle.current().pid() + "-1"))
			.isFalse();
	}

	private static void delete(Path folder) throws IOException {
		FileSystemUtils.deleteRecursively(folder);
	}

}
