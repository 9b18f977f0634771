package dev.zklock.lock;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.LockMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of lock nodes: by sequence whatever their naming, and at the end of the key node's
 * sequence counter, with the names ZooKeeper gives there ({@code %010d} of the parent's
 * {@code cversion}).
 */
class LockNodesTests {

	private static String node(String id, String marker, int sequence) {
		return LockNodes.protectedPrefix(id) + marker + String.format("%010d", sequence);
	}

	@Test
	void nodesNamedPastTheEndSortAfterEveryOther() {
		String holder = node("a", LockNodes.WRITE, Integer.MAX_VALUE - 2);
		String waiter = node("b", LockNodes.READ, Integer.MAX_VALUE - 1);
		String last = node("c", LockNodes.WRITE, Integer.MAX_VALUE);
		String wrapped = node("d", LockNodes.WRITE, Integer.MIN_VALUE);
		String wrappedShort = node("e", LockNodes.WRITE, -5);
		List<String> sorted = LockNodes.sorted(List.of(wrapped, last, waiter, wrappedShort, holder));
		assertThat(sorted.subList(0, 2)).containsExactly(holder, waiter);
		assertThat(sorted.subList(2, 5)).containsExactlyInAnyOrder(last, wrapped, wrappedShort);
		assertThat(LockNodes.predecessor(sorted, 0, LockMode.EXCLUSIVE)).isNull();
	}

	@Test
	void onlyTheLastNameAndNegativeNamesArePastTheEnd() {
		assertThat(LockNodes.isPastEnd(node("a", LockNodes.WRITE, 0))).isFalse();
		assertThat(LockNodes.isPastEnd(node("a", LockNodes.READ, Integer.MAX_VALUE - 1))).isFalse();
		assertThat(LockNodes.isPastEnd(node("a", LockNodes.WRITE, Integer.MAX_VALUE))).isTrue();
		assertThat(LockNodes.isPastEnd(node("a", LockNodes.READ, Integer.MIN_VALUE))).isTrue();
		assertThat(LockNodes.isPastEnd(node("a", LockNodes.WRITE, -1))).isTrue();
	}

	@Test
	void nodesOfBothNamingsAndOfCuratorsMutexAreOrderedBySequence() {
		String mutex = "_c_0d2f6c1e-4b5a-4f4e-9a53-2c1b7e0f9d11-lock-" + String.format("%010d", 3);
		String write = node("a", LockNodes.marker(LockMode.EXCLUSIVE, LockNodeNames.READ_WRITE_LOCK), 4);
		String sharedAsMutex = node("b", LockNodes.marker(LockMode.SHARED, LockNodeNames.MUTEX), 5);
		String exclusiveAsMutex = node("c", LockNodes.marker(LockMode.EXCLUSIVE, LockNodeNames.MUTEX), 6);
		String read = node("d", LockNodes.marker(LockMode.SHARED, LockNodeNames.READ_WRITE_LOCK), 7);
		List<String> sorted = LockNodes.sorted(List.of(read, exclusiveAsMutex, "other", sharedAsMutex, write, mutex));
		assertThat(sorted).containsExactly(mutex, write, sharedAsMutex, exclusiveAsMutex, read);
		assertThat(sorted).map(LockNodes::isExclusive).containsExactly(true, true, false, true, false);
		assertThat(LockNodes.predecessor(sorted, 2, LockMode.SHARED)).isEqualTo(write);
		assertThat(LockNodes.predecessor(sorted, 4, LockMode.SHARED)).isEqualTo(exclusiveAsMutex);
	}

	@Test
	void nodesNamedAsCuratorsMutexEndWithItsLockPrefixAndTheSequence() {
		assertThat(LockNodes.protectedName("a", LockMode.EXCLUSIVE, LockNodeNames.MUTEX)).isEqualTo("_c_a-lock-");
		assertThat(LockNodes.protectedName("a", LockMode.SHARED, LockNodeNames.MUTEX)).isEqualTo("_c_a-__READ__lock-");
		assertThat(LockNodes.protectedName("a", LockMode.EXCLUSIVE, LockNodeNames.READ_WRITE_LOCK))
			.isEqualTo("_c_a-__WRIT__");
		assertThat(LockNodes.isPastEnd(node("a", LockNodes.marker(LockMode.SHARED, LockNodeNames.MUTEX),
				Integer.MAX_VALUE))).isTrue();
	}

}
