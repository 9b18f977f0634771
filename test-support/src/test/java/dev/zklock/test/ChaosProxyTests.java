package dev.zklock.test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ChaosProxy}, against line echo servers.
 */
class ChaosProxyTests {

	private static final int SILENCE_MILLIS = 300;

	private static final int ANSWER_MILLIS = 5000;

	private final LineEchoServer a = new LineEchoServer("a");

	private final LineEchoServer b = new LineEchoServer("b");

	private final ChaosProxy proxy = ChaosProxy.start(List.of(this.a.address(), this.b.address()));

	@AfterEach
	void close() throws IOException {
		this.proxy.close();
		this.a.close();
		this.b.close();
	}

	@Test
	void connectStringNamesOneLocalPortPerUpstream() {
		List<Integer> ports = this.proxy.localPorts();
		assertThat(ports).hasSize(2).doesNotContain(this.a.address().getPort(), this.b.address().getPort());
		assertThat(this.proxy.connectString()).isEqualTo("127.0.0.1:" + ports.get(0) + ",127.0.0.1:" + ports.get(1));
	}

	@Test
	void passForwardsBothWaysToTheMatchingUpstream() throws IOException {
		try (LineClient toA = client(0, ANSWER_MILLIS); LineClient toB = client(1, ANSWER_MILLIS)) {
			assertThat(toA.call("hello")).isEqualTo("a:hello");
			assertThat(toB.call("hello")).isEqualTo("b:hello");
			this.a.push("news");
			assertThat(toA.readLine()).isEqualTo("news");
		}
		assertThat(this.proxy.mode()).isEqualTo(ChaosProxy.Mode.PASS);
	}

	@Test
	void startsFromAConnectString() throws IOException {
		String connectString = "127.0.0.1:" + this.a.address().getPort() + ", 127.0.0.1:" + this.b.address().getPort();
		try (ChaosProxy other = ChaosProxy.start(connectString);
				LineClient toB = new LineClient(other.localPorts().get(1), ANSWER_MILLIS)) {
			assertThat(toB.call("hi")).isEqualTo("b:hi");
		}
		assertThatIllegalArgumentException().isThrownBy(() -> ChaosProxy.start("127.0.0.1:2181/chroot"));
	}

	@Test
	void blackholeDropsEverythingBothWaysUntilHealedThenResetsTheConnectionsThatLostBytes() throws IOException {
		try (LineClient before = client(0, SILENCE_MILLIS)) {
			assertThat(before.call("before")).isEqualTo("a:before");
			this.proxy.blackhole();
			assertThat(this.proxy.mode()).isEqualTo(ChaosProxy.Mode.BLACKHOLE);
			before.send("lost");
			assertSilent(before);
			this.a.push("news");
			assertSilent(before);
			int accepted = this.a.acceptedCount() + this.b.acceptedCount();
			try (LineClient during = client(1, SILENCE_MILLIS)) {
				during.send("lost too");
				assertSilent(during);
				assertThat(this.a.acceptedCount() + this.b.acceptedCount()).isEqualTo(accepted);
				this.proxy.heal();
				assertClosed(before);
				assertClosed(during);
			}
			try (LineClient after = client(0, ANSWER_MILLIS)) {
				assertThat(after.call("after")).isEqualTo("a:after");
			}
		}
		assertThat(this.a.received()).containsExactly("before", "after");
		assertThat(this.b.received()).isEmpty();
	}

	@Test
	void refuseClosesEveryConnectionAndEveryNewOneUntilHealed() throws IOException {
		try (LineClient before = client(0, ANSWER_MILLIS)) {
			assertThat(before.call("before")).isEqualTo("a:before");
			this.proxy.refuse();
			assertThat(this.proxy.mode()).isEqualTo(ChaosProxy.Mode.REFUSE);
			assertClosed(before);
			try (LineClient during = client(0, ANSWER_MILLIS)) {
				assertClosed(during);
			}
			this.proxy.heal();
			try (LineClient after = client(0, ANSWER_MILLIS)) {
				assertThat(after.call("after")).isEqualTo("a:after");
			}
		}
		assertThat(this.a.received()).containsExactly("before", "after");
	}

	@Test
	void connectionsIdleDuringABlackholeGoOnAfterHeal() throws IOException {
		try (LineClient idle = client(0, ANSWER_MILLIS)) {
			assertThat(idle.call("before")).isEqualTo("a:before");
			this.proxy.blackhole();
			this.proxy.heal();
			assertThat(idle.call("after")).isEqualTo("a:after");
		}
	}

	@Test
	void closesDoNotCrossABlackhole() throws IOException {
		try (LineClient client = client(0, SILENCE_MILLIS)) {
			assertThat(client.call("before")).isEqualTo("a:before");
			this.proxy.blackhole();
			this.a.close();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.a.openCount() == 0);
			assertSilent(client);
		}
	}

	@Test
	void cutConnectionsResetsBothSidesAndLetsNewConnectionsIn() throws IOException {
		try (LineClient client = client(0, ANSWER_MILLIS)) {
			assertThat(client.call("before")).isEqualTo("a:before");
			this.proxy.cutConnections();
			assertClosed(client);
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.a.openCount() == 0);
		assertThat(this.proxy.connectionCount()).isZero();
		try (LineClient client = client(0, ANSWER_MILLIS)) {
			assertThat(client.call("after")).isEqualTo("a:after");
		}
	}

	@Test
	void anUnreachableUpstreamClosesTheClientConnection() throws IOException {
		this.b.close();
		// The JDK may finish closing a listening socket only once its blocked acceptor wakes up.
		InetSocketAddress closed = this.b.address();
		await().atMost(Duration.ofSeconds(10)).until(() -> refuses(closed));
		try (LineClient client = client(1, ANSWER_MILLIS)) {
			client.send("hello");
			assertClosed(client);
		}
	}

	@Test
	void closeEndsEveryThreadAndFreesThePorts() throws IOException {
		int port = this.proxy.localPorts().get(0);
		try (LineClient client = client(0, ANSWER_MILLIS)) {
			assertThat(client.call("hello")).isEqualTo("a:hello");
			assertThat(proxyThreads()).isNotEmpty();
			this.proxy.close();
			assertClosed(client);
		}
		assertThat(proxyThreads()).isEmpty();
		assertThat(this.proxy.connectionCount()).isZero();
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close());
	}

	private List<String> proxyThreads() {
		String prefix = this.proxy.name() + "-";
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith(prefix))
			.toList();
	}

	private LineClient client(int upstream, int readTimeoutMillis) throws IOException {
		return new LineClient(this.proxy.localPorts().get(upstream), readTimeoutMillis);
	}

	private static void assertSilent(LineClient client) {
		assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(client::readLine);
	}

	private static boolean refuses(InetSocketAddress address) {
		try (Socket socket = new Socket()) {
			socket.connect(address, 1000);
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

	private static void assertClosed(LineClient client) throws IOException {
		client.setReadTimeout(ANSWER_MILLIS);
		try {
			assertThat(client.readLine()).isNull();
		}
		catch (IOException ex) {
			assertThat(ex).isNotInstanceOf(SocketTimeoutException.class);
		}
	}

}
