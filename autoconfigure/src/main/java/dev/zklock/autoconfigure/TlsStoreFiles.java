package dev.zklock.autoconfigure;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslStoreBundle;
import org.springframework.util.FileSystemUtils;
import org.springframework.util.StringUtils;

/**
 * The key and trust material of an SSL bundle copied into the files that the ZooKeeper client
 * reads: PKCS12 files readable by their owner only, in a private temporary folder, under a
 * random password that exists only in memory. {@link #close()} removes them; they are also
 * removed when the JVM exits normally.
 */
final class TlsStoreFiles implements Closeable {

	static final String TYPE = "PKCS12";

	private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

	private final Path directory;

	private final String password;

	private final @Nullable Path keyStore;

	private final @Nullable Path trustStore;

	private TlsStoreFiles(Path directory, String password, @Nullable Path keyStore, @Nullable Path trustStore) {
		this.directory = directory;
		this.password = password;
		this.keyStore = keyStore;
		this.trustStore = trustStore;
	}

	/**
	 * Write the stores of a bundle.
	 * @param bundle the bundle
	 * @return the files; a store the bundle does not have has no file
	 */
	static TlsStoreFiles write(SslBundle bundle) {
		Path directory = createPrivateDirectory();
		try {
			String password = randomPassword();
			SslStoreBundle stores = bundle.getStores();
			Path keyStore = (stores.getKeyStore() != null) ? directory.resolve("key-store.p12") : null;
			Path trustStore = (stores.getTrustStore() != null) ? directory.resolve("trust-store.p12") : null;
			TlsStoreFiles files = new TlsStoreFiles(directory, password, keyStore, trustStore);
			files.update(bundle);
			return files;
		}
		catch (RuntimeException ex) {
			FileSystemUtils.deleteRecursively(directory.toFile());
			throw ex;
		}
	}

	/**
	 * Replace the files' content with the stores of a bundle, each file in one atomic move, so
	 * that the client reads either the old or the new material when it next connects.
	 * @param bundle the bundle, with the same stores as the one the files were written from
	 */
	void update(SslBundle bundle) {
		SslStoreBundle stores = bundle.getStores();
		if (this.keyStore != null && stores.getKeyStore() != null) {
			replace(this.keyStore, copyKeys(stores.getKeyStore(), keyPassword(bundle), bundle.getKey().getAlias()));
		}
		if (this.trustStore != null && stores.getTrustStore() != null) {
			replace(this.trustStore, copyCertificates(stores.getTrustStore()));
		}
	}

	@Nullable Path getKeyStore() {
		return this.keyStore;
	}

	@Nullable Path getTrustStore() {
		return this.trustStore;
	}

	String getPassword() {
		return this.password;
	}

	@Override
	public void close() {
		FileSystemUtils.deleteRecursively(this.directory.toFile());
	}

	private KeyStore copyKeys(KeyStore source, char[] keyPassword, @Nullable String alias) {
		try {
			KeyStore target = emptyStore();
			List<String> aliases = (alias != null) ? List.of(alias) : Collections.list(source.aliases());
			for (String name : aliases) {
				if (!source.isKeyEntry(name)) {
					continue;
				}
				Key key = source.getKey(name, keyPassword);
				target.setKeyEntry(name, key, this.password.toCharArray(), source.getCertificateChain(name));
			}
			return target;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not read the key of the SSL bundle: " + ex.getMessage(), ex);
		}
	}

	private KeyStore copyCertificates(KeyStore source) {
		try {
			KeyStore target = emptyStore();
			for (String name : Collections.list(source.aliases())) {
				if (source.getCertificate(name) != null) {
					target.setCertificateEntry(name, source.getCertificate(name));
				}
			}
			return target;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not read the trust store of the SSL bundle: " + ex.getMessage(), ex);
		}
	}

	private void replace(Path file, KeyStore content) {
		try {
			Path next = Files.createTempFile(this.directory, "next-", ".p12", ownerOnly(false));
			try (OutputStream out = Files.newOutputStream(next)) {
				content.store(out, this.password.toCharArray());
			}
			Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			file.toFile().deleteOnExit();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the TLS store file " + file, ex);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not write the TLS store file " + file + ": " + ex.getMessage(), ex);
		}
	}

	private static char[] keyPassword(SslBundle bundle) {
		SslBundleKey key = bundle.getKey();
		if (key.getPassword() != null) {
			return key.getPassword().toCharArray();
		}
		String storePassword = bundle.getStores().getKeyStorePassword();
		return StringUtils.hasLength(storePassword) ? storePassword.toCharArray() : new char[0];
	}

	private static KeyStore emptyStore() throws GeneralSecurityException {
		KeyStore store = KeyStore.getInstance(TYPE);
		try {
			store.load(null, null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return store;
	}

	private static Path createPrivateDirectory() {
		try {
			Path directory = Files.createTempDirectory("zklock-tls-", ownerOnly(true));
			directory.toFile().deleteOnExit();
			return directory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a private folder for the ZooKeeper client's TLS stores", ex);
		}
	}

	private static FileAttribute<?>[] ownerOnly(boolean directory) {
		if (!POSIX) {
			return new FileAttribute<?>[0];
		}
		return new FileAttribute<?>[] {
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(directory ? "rwx------" : "rw-------")) };
	}

	private static String randomPassword() {
		byte[] bytes = new byte[24];
		new SecureRandom().nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

}
