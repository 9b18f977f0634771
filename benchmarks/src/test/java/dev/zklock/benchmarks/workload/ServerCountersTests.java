package dev.zklock.benchmarks.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ServerCounters}.
 */
class ServerCountersTests {

	private static final String CONS = """
			 /127.0.0.1:50792[1](queued=0,recved=12,sent=12,sid=0x100009a6e4c0000,lop=PING,est=1700000000000,to=30000)
			 /127.0.0.1:50794[1](queued=0,recved=345,sent=345,sid=0x100009a6e4c0001,lop=DELE,est=1700000000001,to=30000)
			 /127.0.0.1:50800[0](queued=0,recved=1,sent=0)
			""";

	@Test
	void receivedPacketsAreThoseOfTheGivenSession() {
		assertThat(ServerCounters.received(CONS, 0x100009a6e4c0001L)).isEqualTo(345);
		assertThat(ServerCounters.received(CONS, 0x100009a6e4c0000L)).isEqualTo(12);
	}

	@Test
	void aSessionWithoutConnectionIsAnError() {
		assertThatIllegalStateException().isThrownBy(() -> ServerCounters.received(CONS, 0x100009a6e4c00L))
			.withMessageContaining("0x100009a6e4c00");
	}

	@Test
	void zxidIsReadInHexadecimal() {
		assertThat(ServerCounters.zxid("Zookeeper version: 3.9.3\nLatency min/avg/max: 0/0.1/3\nZxid: 0x1000000ff\n"))
			.isEqualTo(0x1000000ffL);
	}

	@Test
	void earlierReadingsAreSubtracted() {
		assertThat(new ServerCounters(10, 7).since(new ServerCounters(4, 3))).isEqualTo(new ServerCounters(6, 4));
	}

}
