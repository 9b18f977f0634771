package dev.zklock.autoconfigure;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;

/**
 * What the Netty on the class path does about server host names before ZooKeeper's own
 * settings apply. Netty 4.2 turns on HTTPS-style host name checks for every client TLS
 * context, for the whole JVM, unless
 * {@code -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE} is given: then
 * ZooKeeper's own {@code zookeeper.ssl.hostnameVerification}, which zklock sets per client, is
 * the only switch.
 */
final class NettyHostnameVerification {

	static final String NETTY_PROPERTY = "io.netty.handler.ssl.defaultEndpointVerificationAlgorithm";

	private NettyHostnameVerification() {
	}

	/**
	 * Return the host name check Netty applies to every client engine, if any.
	 * @return the endpoint identification algorithm, or {@code null} for none
	 */
	static @Nullable String enforcedAlgorithm() {
		try {
			SslContext context = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).build();
			SSLEngine engine = context.newEngine(ByteBufAllocator.DEFAULT, "localhost", 2181);
			try {
				String algorithm = engine.getSSLParameters().getEndpointIdentificationAlgorithm();
				return (algorithm != null && !algorithm.isEmpty()) ? algorithm : null;
			}
			finally {
				ReferenceCountUtil.release(engine);
			}
		}
		catch (SSLException ex) {
			throw new IllegalStateException("Could not create a TLS context with Netty: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Fail when host name checks are to be off for this client but Netty keeps them on for the
	 * whole JVM.
	 * @param hostnameVerification the value of {@code zklock.ssl.hostname-verification}
	 */
	static void checkCanDisable(boolean hostnameVerification) {
		if (hostnameVerification) {
			return;
		}
		String algorithm = enforcedAlgorithm();
		if (algorithm != null) {
			throw new ZooKeeperSecurityException(
					"zklock.ssl.hostname-verification=false cannot take effect: the Netty library that the ZooKeeper "
							+ "client uses checks server host names (" + algorithm + ") for every TLS client in this "
							+ "JVM.",
					"Use server certificates that name the hosts in 'zklock.connect-string' and remove "
							+ "'zklock.ssl.hostname-verification=false'; or, knowing that it turns the check off for "
							+ "every Netty TLS client in the JVM, start the JVM with -D" + NETTY_PROPERTY + "=NONE.",
					null);
		}
	}

}
