package dev.zklock.autoconfigure;

import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLContext;

import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.util.StringUtils;

/**
 * TLS for the auto-configured ZooKeeper client, from the SSL bundle named by
 * {@code zklock.ssl.bundle}. It is set on the client's own {@link ZKClientConfig} (a Netty
 * client socket in secure mode), never through system properties: every TLS setting of the
 * client is set here, so that none is taken from a JVM-wide {@code zookeeper.ssl.*} property.
 * <p>
 * The ZooKeeper client reads key and trust material from files, and reads them again on every
 * new connection; the bundle's stores are kept in {@link TlsStoreFiles}, rewritten when the
 * bundle is reloaded, and removed when this bean is destroyed.
 */
final class ZooKeeperClientTls implements DisposableBean {

	private final String bundleName;

	private final SslBundle bundle;

	private final boolean hostnameVerification;

	private final TlsStoreFiles files;

	private final AtomicBoolean closed = new AtomicBoolean();

	private ZooKeeperClientTls(String bundleName, SslBundle bundle, boolean hostnameVerification,
			TlsStoreFiles files) {
		this.bundleName = bundleName;
		this.bundle = bundle;
		this.hostnameVerification = hostnameVerification;
		this.files = files;
	}

	/**
	 * Write the stores of the named bundle and follow its reloads.
	 * @param bundles the application's SSL bundles
	 * @param ssl the {@code zklock.ssl} properties, with a bundle name
	 * @return the client TLS settings
	 */
	static ZooKeeperClientTls of(SslBundles bundles, ZkLockProperties.Ssl ssl) {
		String name = ssl.getBundle();
		if (!StringUtils.hasText(name)) {
			throw new IllegalArgumentException("zklock.ssl.bundle is not set");
		}
		NettyHostnameVerification.checkCanDisable(ssl.isHostnameVerification());
		SslBundle bundle;
		try {
			bundle = bundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw new ZooKeeperSecurityException("zklock.ssl.bundle names SSL bundle '" + name + "', which does not exist"
					+ " (known bundles: " + bundles.getBundleNames() + ").",
					"Set 'zklock.ssl.bundle' to one of the known bundles, or define the bundle as "
							+ "spring.ssl.bundle.jks." + name + ".* or spring.ssl.bundle.pem." + name + ".*.",
					ex);
		}
		ZooKeeperClientTls tls = new ZooKeeperClientTls(name, bundle, ssl.isHostnameVerification(),
				TlsStoreFiles.write(bundle));
		bundles.addBundleUpdateHandler(name, tls::reloaded);
		return tls;
	}

	/**
	 * Set every TLS setting of the ZooKeeper client on a client configuration.
	 * @param config the configuration of one client
	 */
	void applyTo(ZKClientConfig config) {
		config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
		config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
		SslOptions options = this.bundle.getOptions();
		try (ClientX509Util x509 = new ClientX509Util()) {
			setStore(config, x509.getSslKeystoreLocationProperty(), x509.getSslKeystorePasswdProperty(),
					x509.getSslKeystoreTypeProperty(), this.files.getKeyStore());
			setStore(config, x509.getSslTruststoreLocationProperty(), x509.getSslTruststorePasswdProperty(),
					x509.getSslTruststoreTypeProperty(), this.files.getTrustStore());
			config.setProperty(x509.getSslProtocolProperty(), this.bundle.getProtocol());
			config.setProperty(x509.getSslEnabledProtocolsProperty(), join(enabledProtocols(options)));
			config.setProperty(x509.getSslCipherSuitesProperty(), join(options.getCiphers()));
			config.setProperty(x509.getSslHostnameVerificationEnabledProperty(),
					String.valueOf(this.hostnameVerification));
			config.setProperty(x509.getSslContextSupplierClassProperty(), null);
			config.setProperty(x509.getSslCrlEnabledProperty(), null);
			config.setProperty(x509.getSslOcspEnabledProperty(), null);
		}
	}

	/**
	 * Return the name of the bundle.
	 * @return the bundle name
	 */
	String getBundleName() {
		return this.bundleName;
	}

	/**
	 * Return whether the bundle holds a key, which the client presents as its certificate.
	 * @return whether the client has a certificate
	 */
	boolean hasClientCertificate() {
		return this.files.getKeyStore() != null;
	}

	/**
	 * Create a TLS context with the bundle's own key and trust material, for the startup
	 * diagnosis.
	 * @return a new context
	 */
	SSLContext createSslContext() {
		return this.bundle.createSslContext();
	}

	boolean isHostnameVerification() {
		return this.hostnameVerification;
	}

	TlsStoreFiles getFiles() {
		return this.files;
	}

	@Override
	public void destroy() {
		if (this.closed.compareAndSet(false, true)) {
			this.files.close();
		}
	}

	private void reloaded(SslBundle bundle) {
		if (!this.closed.get()) {
			this.files.update(bundle);
		}
	}

	private void setStore(ZKClientConfig config, String location, String password, String type,
			@Nullable Path file) {
		config.setProperty(location, (file != null) ? file.toString() : null);
		config.setProperty(password, (file != null) ? this.files.getPassword() : null);
		config.setProperty(type, (file != null) ? TlsStoreFiles.TYPE : null);
	}

	/**
	 * The bundle's protocols, else those the JDK enables by default: ZooKeeper would otherwise
	 * enable the bundle's protocol name only, which for the default 'TLS' is no protocol.
	 */
	private static String[] enabledProtocols(SslOptions options) {
		String[] protocols = options.getEnabledProtocols();
		if (protocols != null && protocols.length > 0) {
			return protocols;
		}
		try {
			return SSLContext.getDefault().getDefaultSSLParameters().getProtocols();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("The JDK has no default TLS context", ex);
		}
	}

	private static @Nullable String join(String @Nullable [] values) {
		return (values != null && values.length > 0) ? String.join(",", values) : null;
	}

}
