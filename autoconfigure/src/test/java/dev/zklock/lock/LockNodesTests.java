package dev.zklock.lock;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.LockMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of lock nodes at the end of the key node's sequence counter, with the names
 * ZooKeeper gives there ({@code %010d} of the parent's {@code cversion}).
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

}
