package dev.zklock.systemtest.register;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link FencedRegister} and {@link FencedRegisterClient}.
 */
class FencedRegisterTests {

	private final FencedRegister register = FencedRegister.start();

	private final FencedRegisterClient client = new FencedRegisterClient(this.register.uri(), Duration.ofSeconds(5));

	@AfterEach
	void close() {
		this.register.close();
	}

	@Test
	void servesReadsAndWritesOverLoopback() {
		assertThat(this.register.uri().getHost()).isEqualTo("127.0.0.1");
		assertThat(this.client.read("counter", 3)).isZero();
		this.client.write("counter", 3, 1);
		assertThat(this.client.sharedRead("counter", 4)).isEqualTo(1);
		assertThat(this.register.state("counter")).isEqualTo(new RegisterState("counter", 1, 4, 3, 2, 1, 0, 0));
	}

	@Test
	void aRejectionReachesTheClientWithTheFence() {
		this.client.write("counter", 8, 1);
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.client.read("counter", 7))
			.satisfies((ex) -> assertThat(ex.getRegister()).isEqualTo("counter"))
			.satisfies((ex) -> assertThat(ex.getToken()).isEqualTo(7))
			.satisfies((ex) -> assertThat(ex.getFence()).isEqualTo(8));
		assertThatExceptionOfType(FenceRejectedException.class).isThrownBy(() -> this.client.write("counter", 7, 2));
		assertThat(this.register.state("counter").rejected()).isEqualTo(2);
	}

	@Test
	void registersAreIndependent() {
		this.client.write("one", 9, 1);
		this.client.write("two", 1, 5);
		assertThat(this.register.states()).extracting(RegisterState::name, RegisterState::value)
			.containsExactly(tuple("one", 1L), tuple("two", 5L));
	}

	@Test
	void anUnusedRegisterIsZeroAndNotListed() {
		assertThat(this.register.state("unused")).isEqualTo(new RegisterState("unused", 0, 0, 0, 0, 0, 0, 0));
		assertThat(this.register.states()).isEmpty();
	}

	@Test
	void aMalformedRequestIsRefused() {
		assertThatIllegalStateException().isThrownBy(() -> this.client.read("no/such", 1)).withMessageContaining("404");
		assertThat(this.register.states()).isEmpty();
	}

	@Test
	void aClosedRegisterCannotBeReached() {
		this.register.close();
		assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> this.client.read("counter", 1));
	}

	@Test
	void noIncrementIsLostWhateverTheInterleavingOfUnlockedWriters() throws Exception {
		AtomicLong tokens = new AtomicLong();
		ExecutorService writers = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				done.add(writers.submit(() -> {
					for (int n = 0; n < 100; n++) {
						long token = tokens.incrementAndGet();
						try {
							this.client.write("counter", token, this.client.read("counter", token) + 1);
						}
						catch (FenceRejectedException ex) {
							// a later writer came in between: this increment did not happen
						}
					}
				}));
			}
			for (Future<?> writer : done) {
				writer.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			writers.shutdownNow();
		}
		RegisterState state = this.register.state("counter");
		assertThat(state.acceptedWrites()).isPositive();
		assertThat(state.value()).isEqualTo(state.acceptedWrites());
		assertThat(state.acceptedReads() + state.rejectedReads()).isEqualTo(400);
		assertThat(state.acceptedWrites() + state.rejectedWrites()).isEqualTo(state.acceptedReads());
	}

}
