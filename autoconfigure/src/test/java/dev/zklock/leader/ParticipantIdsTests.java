package dev.zklock.leader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Default participant ids.
 */
class ParticipantIdsTests {

	@Test
	void idsNameTheApplicationAndProcessAndDifferWithinOneProcess() {
		String first = ParticipantIds.next("inventory");
		String second = ParticipantIds.next("inventory");
		String pid = Long.toString(ProcessHandle.current().pid());
		assertThat(first).matches("inventory@[^:]+:" + pid + "(#\\d+)?");
		assertThat(second).matches("inventory@[^:]+:" + pid + "#\\d+").isNotEqualTo(first);
	}

}
