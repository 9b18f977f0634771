package dev.zklock.autoconfigure;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;

/**
 * TLS of the embedded ZooKeeper server, from an SSL bundle: its key is the server's
 * certificate, its trust store (if any) the authorities of client certificates, which the
 * server then requires and turns into {@code x509:} identities.
 * <p>
 * The ZooKeeper server takes its TLS settings from system properties only, and reads them
 * again for every new connection, so they are JVM-wide and stay set while the server runs;
 * {@link #close()} puts them back. A property of these that is already set in the JVM is a
 * conflict and fails the start. The stores are written to private temporary files
 * ({@link TlsStoreFiles}), rewritten when the bundle is reloaded.
 */
final class EmbeddedServerTls implements AutoCloseable {

	private static final String AUTH_PROVIDER_X509 = "zookeeper.authProvider.x509";

	private final TlsStoreFiles files;

	private final Map<String, String> properties = new LinkedHashMap<>();

	private boolean applied;

	private EmbeddedServerTls(TlsStoreFiles files) {
		this.files = files;
	}

	/**
	 * Write the bundle's stores and work out the system properties the server needs.
	 * @param bundleName the bundle's name, for messages
	 * @param bundle the server's bundle, with a key
	 * @return the server TLS settings, not yet applied
	 * @throws ZooKeeperSecurityException if the bundle has no key, or one of the properties is
	 * already set in the JVM
	 */
	static EmbeddedServerTls of(String bundleName, SslBundle bundle) {
		if (bundle.getStores().getKeyStore() == null) {
			throw new ZooKeeperSecurityException("SSL bundle '" + bundleName + "', named by zklock.embedded.ssl.bundle,"
					+ " has no key store: the embedded ZooKeeper server needs a certificate and its key.",
					"Give bundle '" + bundleName + "' a key store (spring.ssl.bundle.*." + bundleName
							+ ".keystore.*), or name another bundle in 'zklock.embedded.ssl.bundle'.",
					null);
		}
		TlsStoreFiles files = TlsStoreFiles.write(bundle);
		EmbeddedServerTls tls = new EmbeddedServerTls(files);
		try (ClientX509Util x509 = new ClientX509Util()) {
			tls.store(x509.getSslKeystoreLocationProperty(), x509.getSslKeystorePasswdProperty(),
					x509.getSslKeystoreTypeProperty(), files.getKeyStore());
			tls.store(x509.getSslTruststoreLocationProperty(), x509.getSslTruststorePasswdProperty(),
					x509.getSslTruststoreTypeProperty(), files.getTrustStore());
			tls.properties.put(x509.getSslClientAuthProperty(), (files.getTrustStore() != null) ? "need" : "none");
			tls.properties.put(AUTH_PROVIDER_X509, X509AuthenticationProvider.class.getName());
		}
		for (String name : tls.properties.keySet()) {
			String value = System.getProperty(name);
			if (value != null) {
				files.close();
				throw new ZooKeeperSecurityException("zklock.embedded.ssl.bundle sets the JVM-wide system property '"
						+ name + "' for the embedded ZooKeeper server, but it is already set"
						+ (name.contains("assword") ? "" : " (to '" + value + "')")
						+ ": another ZooKeeper server or client of this JVM configures TLS through system properties.",
						"Remove -D" + name + " (and the other zookeeper.ssl.* system properties), or run the embedded "
								+ "server without TLS by removing 'zklock.embedded.ssl.bundle'.",
						null);
			}
		}
		return tls;
	}

	private void store(String location, String password, String type, @Nullable Path file) {
		if (file != null) {
			this.properties.put(location, file.toString());
			this.properties.put(password, this.files.getPassword());
			this.properties.put(type, TlsStoreFiles.TYPE);
		}
	}

	/**
	 * Set the system properties, and register the server's x509 authentication provider.
	 */
	void apply() {
		this.properties.forEach(System::setProperty);
		ProviderRegistry.reset();
		this.applied = true;
	}

	/**
	 * Rewrite the stores from a reloaded bundle: the next connection uses the new material.
	 * @param bundle the reloaded bundle
	 */
	void reloaded(SslBundle bundle) {
		this.files.update(bundle);
	}

	/**
	 * Clear the system properties this set and remove the files.
	 */
	@Override
	public void close() {
		if (this.applied) {
			this.properties.keySet().forEach(System::clearProperty);
			ProviderRegistry.reset();
			this.applied = false;
		}
		this.files.close();
	}

}
