package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.apache.zookeeper.client.ConnectStringParser;
import org.jspecify.annotations.Nullable;

/**
 * Finds out, with one short connection of its own, why the client cannot connect when TLS is
 * the reason: a server that does not speak TLS, or speaks only TLS to a plaintext client; a
 * server certificate the bundle does not trust or that names another host; a client
 * certificate the server rejects. Anything else (a server that is down, a network problem) gives
 * no diagnosis, and the startup waits for the connection timeout as before.
 */
final class TlsHandshakeDiagnosis {

	private static final int TIMEOUT_MS = 2000;

	private TlsHandshakeDiagnosis() {
	}

	/**
	 * Diagnose the first server of the connect string that accepts a TCP connection.
	 * @param connectString the connect string
	 * @param tls the client's TLS settings, or {@code null} for a plaintext client
	 * @return the failure to report, if TLS is why the client cannot connect
	 */
	static Optional<ZooKeeperSecurityException> diagnose(String connectString, @Nullable ZooKeeperClientTls tls) {
		for (InetSocketAddress server : new ConnectStringParser(connectString).getServerAddresses()) {
			String address = server.getHostString() + ":" + server.getPort();
			try {
				return (tls != null) ? diagnoseTls(address, server, tls) : diagnosePlaintext(address, server);
			}
			catch (IOException ex) {
				// Not reachable: try the next server.
			}
		}
		return Optional.empty();
	}

	private static Optional<ZooKeeperSecurityException> diagnosePlaintext(String address, InetSocketAddress server)
			throws IOException {
		AtomicBoolean presentedCertificate = new AtomicBoolean();
		try (SSLSocket socket = open(server, detectingContext(presentedCertificate), false)) {
			socket.startHandshake();
		}
		catch (SSLException ex) {
			// A server that speaks TLS shows its certificate before any failure.
		}
		if (!presentedCertificate.get()) {
			return Optional.empty();
		}
		return Optional.of(new ZooKeeperSecurityException("ZooKeeper at " + address + " accepts TLS connections only, "
				+ "and the client connects in plaintext.",
				"Set 'zklock.ssl.bundle' to an SSL bundle (spring.ssl.bundle.*) that trusts the server's certificate, "
						+ "or set 'zklock.connect-string' to the servers' plaintext client port.",
				null));
	}

	private static Optional<ZooKeeperSecurityException> diagnoseTls(String address, InetSocketAddress server,
			ZooKeeperClientTls tls) throws IOException {
		String bundle = "'" + tls.getBundleName() + "'";
		try (SSLSocket socket = open(server, tls.createSslContext(), tls.isHostnameVerification())) {
			socket.startHandshake();
			awaitRejection(socket);
			return Optional.empty();
		}
		catch (SSLException ex) {
			CertificateException certificate = find(ex, CertificateException.class);
			String message = String.valueOf(ex.getMessage());
			if (certificate != null && String.valueOf(certificate.getMessage()).contains("No subject alternative")) {
				return Optional.of(new ZooKeeperSecurityException("The certificate of ZooKeeper at " + address
						+ " does not name that host: " + certificate.getMessage() + ".",
						"Use the host names or addresses the server certificates name in 'zklock.connect-string', "
								+ "or give the servers certificates that name their hosts.",
						ex));
			}
			if (certificate != null || message.contains("PKIX") || message.contains("unable to find valid certification")) {
				return Optional.of(new ZooKeeperSecurityException("The certificate of ZooKeeper at " + address
						+ " is not trusted by SSL bundle " + bundle + ": " + message + ".",
						"Add the certificate authority that signed the servers' certificates to the trust store of "
								+ "SSL bundle " + bundle + " (spring.ssl.bundle.*." + tls.getBundleName()
								+ ".truststore), or set 'zklock.ssl.bundle' to a bundle that trusts it.",
						ex));
			}
			if (message.contains("Received fatal alert")) {
				String presented = tls.hasClientCertificate() ? "rejected the client certificate of SSL bundle " + bundle
						: "requires a client certificate, and SSL bundle " + bundle + " has none";
				return Optional.of(new ZooKeeperSecurityException("ZooKeeper at " + address + " " + presented + " ("
						+ message + ").",
						"Give SSL bundle " + bundle + " a key store (spring.ssl.bundle.*." + tls.getBundleName()
								+ ".keystore) with a certificate the servers' trust store trusts, or set "
								+ "'zklock.ssl.bundle' to such a bundle.",
						ex));
			}
			if (PlaintextZooKeeper.answers(server, TIMEOUT_MS)) {
				return Optional.of(new ZooKeeperSecurityException("ZooKeeper at " + address
						+ " does not speak TLS, and 'zklock.ssl.bundle' is set.",
						"Set 'zklock.connect-string' to the servers' secure client port (secureClientPort), or "
								+ "remove 'zklock.ssl.bundle' to connect in plaintext.",
						ex));
			}
			return Optional.empty();
		}
	}

	/**
	 * With TLS 1.3 a server rejects a client certificate after the client's side of the
	 * handshake is done: read briefly, a ZooKeeper server sends nothing until asked.
	 */
	private static void awaitRejection(SSLSocket socket) throws IOException {
		socket.setSoTimeout(300);
		try {
			socket.getInputStream().read();
		}
		catch (SocketTimeoutException ex) {
			// Accepted.
		}
	}

	private static SSLSocket open(InetSocketAddress server, SSLContext context, boolean hostnameVerification)
			throws IOException {
		Socket plain = new Socket();
		plain.connect(new InetSocketAddress(server.getHostString(), server.getPort()), TIMEOUT_MS);
		plain.setSoTimeout(TIMEOUT_MS);
		SSLSocket socket = (SSLSocket) context.getSocketFactory()
			.createSocket(plain, server.getHostString(), server.getPort(), true);
		if (hostnameVerification) {
			SSLParameters parameters = socket.getSSLParameters();
			parameters.setEndpointIdentificationAlgorithm("HTTPS");
			socket.setSSLParameters(parameters);
		}
		return socket;
	}

	/**
	 * A context used only to see whether a server presents a certificate; no data is ever
	 * sent over its connections.
	 */
	private static SSLContext detectingContext(AtomicBoolean presentedCertificate) {
		TrustManager detector = new X509TrustManager() {

			@Override
			public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
				throw new CertificateException("not a server");
			}

			@Override
			public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
				presentedCertificate.set(true);
				throw new CertificateException("detection only");
			}

			@Override
			public X509Certificate[] getAcceptedIssuers() {
				return new X509Certificate[0];
			}

		};
		try {
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, new TrustManager[] { detector }, null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("The JDK has no TLS", ex);
		}
	}

	private static <T extends Throwable> @Nullable T find(Throwable ex, Class<T> type) {
		for (Throwable candidate = ex; candidate != null; candidate = candidate.getCause()) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
		}
		return null;
	}

	/**
	 * A plaintext ZooKeeper server answers a four-letter word with text, even one it does not
	 * allow.
	 */
	private static final class PlaintextZooKeeper {

		static boolean answers(InetSocketAddress server, int timeoutMs) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(server.getHostString(), server.getPort()), timeoutMs);
				socket.setSoTimeout(timeoutMs);
				socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
				socket.getOutputStream().flush();
				InputStream in = socket.getInputStream();
				byte[] reply = in.readNBytes(64);
				String text = new String(reply, StandardCharsets.US_ASCII);
				return text.startsWith("Zookeeper version") || text.contains("is not executed");
			}
			catch (IOException ex) {
				return false;
			}
		}

	}

}
