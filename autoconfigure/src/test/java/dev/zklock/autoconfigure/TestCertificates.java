package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates made at run time for TLS tests: a certificate authority that issues server and
 * client certificates, and the key and trust store files (PKCS12 and PEM) that hold them.
 */
final class TestCertificates {

	private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

	private TestCertificates() {
	}

	/**
	 * Create a self-signed certificate authority.
	 * @param name its common name
	 * @return the authority
	 */
	static Authority authority(String name) {
		KeyPair keys = newKeyPair();
		X500Name subject = new X500Name("CN=" + name);
		X509v3CertificateBuilder builder = builder(subject, subject, keys);
		try {
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
			builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new Authority(keys, sign(builder, keys));
	}

	private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
		Instant now = Instant.now();
		return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
				Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(Duration.ofDays(1))), subject,
				keys.getPublic());
	}

	private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
		try {
			return new JcaX509CertificateConverter()
				.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
		}
		catch (OperatorCreationException | GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static KeyPair newKeyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
			generator.initialize(256);
			return generator.generateKeyPair();
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A certificate authority.
	 * @param keys its keys
	 * @param certificate its self-signed certificate
	 */
	record Authority(KeyPair keys, X509Certificate certificate) {

		/**
		 * Issue a certificate good for TLS servers and clients.
		 * @param commonName the subject's common name
		 * @param dnsNames the host names it is valid for; with none, it names 'localhost' and
		 * the IPv4 loopback address
		 * @return the certificate with its key
		 */
		Issued issue(String commonName, String... dnsNames) {
			KeyPair subjectKeys = newKeyPair();
			X509v3CertificateBuilder builder = builder(X500Name.getInstance(this.certificate.getSubjectX500Principal().getEncoded()),
					new X500Name("CN=" + commonName), subjectKeys);
			GeneralName[] names = (dnsNames.length > 0) ? new GeneralName[dnsNames.length]
					: new GeneralName[] { new GeneralName(GeneralName.dNSName, "localhost"),
							new GeneralName(GeneralName.iPAddress, "127.0.0.1") };
			for (int i = 0; i < dnsNames.length; i++) {
				names[i] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
			}
			try {
				builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
				builder.addExtension(Extension.keyUsage, true,
						new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
				builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
						new KeyPurposeId[] { KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth }));
				builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			return new Issued(subjectKeys, sign(builder, this.keys), this.certificate);
		}

		/**
		 * Write a PKCS12 trust store holding this authority's certificate.
		 * @param file the file
		 * @param password the store password
		 * @return the file
		 */
		Path writeTrustStore(Path file, String password) {
			return store(file, password, (store) -> store.setCertificateEntry("ca", this.certificate));
		}

		/**
		 * Write this authority's certificate as PEM.
		 * @param file the file
		 * @return the file
		 */
		Path writePem(Path file) {
			return writeString(file, pem("CERTIFICATE", encoded(this.certificate)));
		}

	}

	/**
	 * A certificate issued by an authority, with its key.
	 * @param keys the subject's keys
	 * @param certificate the certificate
	 * @param issuer the authority's certificate
	 */
	record Issued(KeyPair keys, X509Certificate certificate, X509Certificate issuer) {

		/**
		 * Write a PKCS12 key store holding the key and the certificate chain.
		 * @param file the file
		 * @param password the password of the store and the key
		 * @return the file
		 */
		Path writeKeyStore(Path file, String password) {
			return store(file, password, (store) -> store.setKeyEntry("key", this.keys.getPrivate(),
					password.toCharArray(), new Certificate[] { this.certificate, this.issuer }));
		}

		/**
		 * Write the certificate chain as PEM.
		 * @param file the file
		 * @return the file
		 */
		Path writeCertificatePem(Path file) {
			return writeString(file,
					pem("CERTIFICATE", encoded(this.certificate)) + pem("CERTIFICATE", encoded(this.issuer)));
		}

		/**
		 * Write the unencrypted private key as PKCS#8 PEM.
		 * @param file the file
		 * @return the file
		 */
		Path writePrivateKeyPem(Path file) {
			return writeString(file, pem("PRIVATE KEY", this.keys.getPrivate().getEncoded()));
		}

	}

	private interface StoreContent {

		void addTo(KeyStore store) throws GeneralSecurityException;

	}

	private static Path store(Path file, String password, StoreContent content) {
		try {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(null, null);
			content.addTo(store);
			try (OutputStream out = Files.newOutputStream(file)) {
				store.store(out, password.toCharArray());
			}
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static byte[] encoded(X509Certificate certificate) {
		try {
			return certificate.getEncoded();
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] { '\n' }).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

	private static Path writeString(Path file, String content) {
		try {
			return Files.writeString(file, content);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
