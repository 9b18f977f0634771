package dev.zklock.systemtest.register;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link FencedValue}.
 */
class FencedValueTests {

	private final FencedValue value = new FencedValue("counter");

	@Test
	void accessesWithRisingOrEqualTokensAreServed() {
		assertThat(this.value.read(5, Access.EXCLUSIVE)).isZero();
		this.value.write(5, 1);
		assertThat(this.value.read(7, Access.EXCLUSIVE)).isEqualTo(1);
		this.value.write(7, 2);
		assertThat(this.value.state()).isEqualTo(new RegisterState("counter", 2, 7, 7, 2, 2, 0, 0));
	}

	@Test
	void readsAndWritesBelowTheFenceAreRejectedAndChangeNothing() {
		this.value.write(10, 1);
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.value.read(9, Access.EXCLUSIVE))
			.satisfies((ex) -> assertThat(ex.getFence()).isEqualTo(10))
			.satisfies((ex) -> assertThat(ex.getToken()).isEqualTo(9));
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.value.write(9, 5));
		assertThat(this.value.state()).isEqualTo(new RegisterState("counter", 1, 10, 10, 0, 1, 1, 1));
		assertThat(this.value.state().rejected()).isEqualTo(2);
	}

	@Test
	void aStaleHolderCannotWriteBetweenTheNextHoldersReadAndWrite() {
		long stale = this.value.read(10, Access.EXCLUSIVE);
		long next = this.value.read(11, Access.EXCLUSIVE);
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.value.write(10, stale + 1));
		this.value.write(11, next + 1);
		RegisterState state = this.value.state();
		assertThat(state.value()).isEqualTo(state.acceptedWrites()).isEqualTo(1);
	}

	@Test
	void sharedReadsRunTogetherWhateverTheOrderOfTheirTokens() {
		this.value.write(10, 3);
		assertThat(this.value.read(12, Access.SHARED)).isEqualTo(3);
		assertThat(this.value.read(11, Access.SHARED)).isEqualTo(3);
		assertThat(this.value.state().fence()).isEqualTo(12);
		assertThat(this.value.state().exclusiveFence()).isEqualTo(10);
	}

	@Test
	void aSharedReadBelowTheLastExclusiveTokenIsRejected() {
		this.value.write(10, 3);
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.value.read(9, Access.SHARED));
	}

	@Test
	void anExclusiveAccessBelowASharedReadIsRejected() {
		this.value.read(12, Access.SHARED);
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.value.write(11, 1));
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.value.read(11, Access.EXCLUSIVE));
		this.value.write(13, 1);
		assertThat(this.value.state().value()).isEqualTo(1);
	}

	@Test
	void unfencedAccessesIgnoreAndKeepTheFenceSoInterleavedIncrementsAreLost() {
		this.value.write(10, 1);
		long first = this.value.read(0, Access.NONE);
		long second = this.value.read(0, Access.NONE);
		this.value.write(0, Access.NONE, first + 1);
		this.value.write(0, Access.NONE, second + 1);
		RegisterState state = this.value.state();
		assertThat(state.value()).isEqualTo(2);
		assertThat(state.fence()).isEqualTo(10);
		assertThat(state.acceptedWrites()).isEqualTo(3);
		assertThat(state.lostUpdates()).isEqualTo(1);
	}

}
