package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;

import dev.zklock.benchmarks.library.CuratorClients;

/**
 * Throw-away TLS material for the setups with a TLS port, made by
 * {@code scripts/dev-certificates.sh} (a certificate authority and a server certificate for
 * 127.0.0.1) under a random password, and the settings that go with it: the server's JVM
 * options, and the system properties that make {@link CuratorClients} connect over TLS.
 *
 * @param folder the folder of the stores
 * @param password their password
 */
record TlsMaterial(Path folder, String password) {

	private static final String SCRIPT = "scripts/dev-certificates.sh";

	/**
	 * Make the material.
	 * @param folder an empty folder, or one to overwrite
	 * @return the material
	 * @throws IOException if the script cannot run or fails
	 */
	static TlsMaterial create(Path folder) throws IOException {
		String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
		Path script = script();
		Files.createDirectories(folder);
		ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), folder.toAbsolutePath().toString())
			.redirectErrorStream(true)
			.redirectOutput(folder.resolveSibling(folder.getFileName() + ".log").toFile());
		builder.environment().put("KEYTOOL", Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		builder.environment().put("DEV_TLS_PASSWORD", password);
		Process process = builder.start();
		try {
			if (!process.waitFor(2, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IOException(SCRIPT + " did not finish within 2 minutes");
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while making the TLS material", ex);
		}
		if (process.exitValue() != 0) {
			throw new IOException(SCRIPT + " failed with exit code " + process.exitValue() + ": see "
					+ folder.resolveSibling(folder.getFileName() + ".log").toAbsolutePath());
		}
		return new TlsMaterial(folder.toAbsolutePath(), password);
	}

	private static Path script() throws IOException {
		for (Path base : List.of(Path.of(""), Path.of(".."))) {
			Path candidate = base.resolve(SCRIPT);
			if (Files.isRegularFile(candidate)) {
				return candidate;
			}
		}
		throw new IOException("Cannot find " + SCRIPT + ": run the benchmarks from the repository's root");
	}

	/**
	 * Return the JVM options that give a server a TLS port with the server certificate, through
	 * Netty (ZooKeeper's TLS settings are system properties of the server).
	 * @return the options
	 */
	List<String> serverJvmArgs() {
		return List.of("-Dzookeeper.serverCnxnFactory=" + NettyServerCnxnFactory.class.getName(),
				"-Dzookeeper.ssl.keyStore.location=" + this.folder.resolve("zookeeper.p12"),
				"-Dzookeeper.ssl.keyStore.password=" + this.password, "-Dzookeeper.ssl.keyStore.type=PKCS12",
				"-Dzookeeper.ssl.trustStore.location=" + this.folder.resolve("trust.p12"),
				"-Dzookeeper.ssl.trustStore.password=" + this.password, "-Dzookeeper.ssl.trustStore.type=PKCS12",
				"-Dzookeeper.ssl.clientAuth=none",
				"-Dzookeeper.authProvider.x509=" + X509AuthenticationProvider.class.getName());
	}

	/**
	 * Return the system properties, as JVM options, that make clients connect over TLS and
	 * trust the server certificate.
	 * @return the options
	 */
	List<String> clientJvmArgs() {
		return List.of("-D" + CuratorClients.TLS_TRUST_STORE_PROPERTY + "=" + this.folder.resolve("trust.p12"),
				"-D" + CuratorClients.TLS_PASSWORD_PROPERTY + "=" + this.password);
	}

}
