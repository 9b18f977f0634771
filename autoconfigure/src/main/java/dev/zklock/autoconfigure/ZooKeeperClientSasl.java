package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.AppConfigurationEntry.LoginModuleControlFlag;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.StringUtils;

/**
 * SASL authentication of the auto-configured ZooKeeper client, from the {@code zklock.sasl.*}
 * properties: a DIGEST-MD5 login with a user name and password (held in memory, in a login
 * section of {@link JaasSections}, no JAAS file needed), or a named section of the JVM's JAAS
 * configuration. Both are set on the client's own {@link ZKClientConfig}, so another ZooKeeper
 * client of the JVM may log in differently or not at all.
 * <p>
 * The ZooKeeper client reports a rejected login only as an event after the connection is
 * established; {@link #verifyLogin} asks the server once, after the SASL exchange, so that a
 * wrong password fails the startup with its reason instead of a client that never works.
 */
final class ZooKeeperClientSasl implements DisposableBean {

	private static final String DIGEST_LOGIN_MODULE = "org.apache.zookeeper.server.auth.DigestLoginModule";

	private static final Duration RETRY_PAUSE = Duration.ofMillis(100);

	private final String section;

	private final boolean ownSection;

	private final String description;

	private final String action;

	private final AtomicBoolean closed = new AtomicBoolean();

	private ZooKeeperClientSasl(String section, boolean ownSection, String description, String action) {
		this.section = section;
		this.ownSection = ownSection;
		this.description = description;
		this.action = action;
	}

	/**
	 * Check the properties and prepare the login.
	 * @param sasl the {@code zklock.sasl} properties, with a user name or a login context
	 * @return the client SASL settings
	 * @throws ZooKeeperSecurityException if the properties contradict each other or name a
	 * login section the JVM does not have
	 */
	static ZooKeeperClientSasl of(ZkLockProperties.Sasl sasl) {
		String username = sasl.getUsername();
		String password = sasl.getPassword();
		String loginContext = sasl.getLoginContext();
		if (StringUtils.hasText(loginContext)) {
			if (StringUtils.hasText(username) || password != null) {
				throw new ZooKeeperSecurityException(
						"zklock.sasl.login-context and zklock.sasl.username/password both set how the ZooKeeper client"
								+ " logs in; only one of them can be used.",
						"Remove 'zklock.sasl.login-context' to log in with the user name and password, or remove "
								+ "'zklock.sasl.username' and 'zklock.sasl.password' to log in with the JAAS section.",
						null);
			}
			if (!JaasSections.isVisible(loginContext)) {
				String file = System.getProperty("java.security.auth.login.config");
				throw new ZooKeeperSecurityException("zklock.sasl.login-context names the JAAS section '" + loginContext
						+ "', which the JVM's JAAS configuration does not have ("
						+ ((file != null) ? "-Djava.security.auth.login.config=" + file
								: "no -Djava.security.auth.login.config is set")
						+ ").",
						"Add a section '" + loginContext + "' to the JAAS file given with "
								+ "-Djava.security.auth.login.config, or correct 'zklock.sasl.login-context'.",
						null);
			}
			return new ZooKeeperClientSasl(loginContext, false, "the login of JAAS section '" + loginContext + "'",
					"Check the JAAS section '" + loginContext + "' named by 'zklock.sasl.login-context' against the "
							+ "server's SASL configuration.");
		}
		if (!StringUtils.hasText(username)) {
			throw new ZooKeeperSecurityException(
					"zklock.sasl.password is set without a user name for the ZooKeeper client's SASL login.",
					"Set 'zklock.sasl.username' to the user the server's JAAS 'Server' section lists, or remove "
							+ "'zklock.sasl.password'.",
					null);
		}
		if (password == null) {
			throw new ZooKeeperSecurityException(
					"zklock.sasl.username is set to '" + username + "' without a password for the ZooKeeper client's"
							+ " SASL login.",
					"Set 'zklock.sasl.password' to the password of '" + username + "', or remove "
							+ "'zklock.sasl.username'.",
					null);
		}
		String section = JaasSections.add(new AppConfigurationEntry(DIGEST_LOGIN_MODULE,
				LoginModuleControlFlag.REQUIRED, Map.of("username", username, "password", password)));
		return new ZooKeeperClientSasl(section, true, "the DIGEST-MD5 login of user '" + username + "'",
				"Check 'zklock.sasl.username' and 'zklock.sasl.password' against the user_" + username
						+ " entry of the server's JAAS 'Server' section, and that the server authenticates with SASL "
						+ "(authProvider = org.apache.zookeeper.server.auth.SASLAuthenticationProvider).");
	}

	/**
	 * Return the name of the JAAS section the client logs in with.
	 * @return the section's name
	 */
	String section() {
		return this.section;
	}

	/**
	 * Set the login on the client's own configuration.
	 * @param config the configuration of the client to create
	 */
	void applyTo(ZKClientConfig config) {
		config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "true");
		config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, this.section);
	}

	/**
	 * Fail if zklock's login section is no longer visible to the ZooKeeper client, because
	 * something replaced the JVM's JAAS configuration after this bean was created.
	 */
	void checkVisible() {
		if (!JaasSections.isVisible(this.section)) {
			throw new ZooKeeperSecurityException("The JVM's JAAS configuration was replaced after zklock prepared "
					+ this.description + " (javax.security.auth.login.Configuration.setConfiguration was called),"
					+ " and the new one does not have the login section '" + this.section + "'.",
					"Do not replace the JVM's JAAS configuration while zklock's client runs, or let the replacement "
							+ "pass unknown section names to the configuration it replaces.",
					null);
		}
	}

	/**
	 * Wait for the server's verdict on the login of a connected client: the first request is
	 * sent after the SASL exchange, and fails if the server rejected it.
	 * @param client the started, connected client
	 * @param connectString the servers, for the message
	 * @param timeout how long to wait for an answer
	 * @return whether the server answered (a rejection throws)
	 * @throws ZooKeeperSecurityException if the server rejected the login
	 */
	boolean verifyLogin(CuratorFramework client, String connectString, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			try {
				ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
				if (zooKeeper.getState() == ZooKeeper.States.AUTH_FAILED) {
					throw rejected(connectString, null);
				}
				zooKeeper.exists("/", false);
				return true;
			}
			catch (KeeperException.AuthFailedException ex) {
				throw rejected(connectString, ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			catch (ZooKeeperSecurityException ex) {
				throw ex;
			}
			catch (Exception ex) {
				// connection loss while the server closes: look again until the deadline
				if (System.nanoTime() - deadline >= 0 || !pause()) {
					return false;
				}
			}
		}
	}

	/**
	 * Return whether a client whose connection did not come up was refused its login.
	 * @param client the started client
	 * @param connectString the servers, for the message
	 * @return the failure to report, or {@code null}
	 */
	@Nullable ZooKeeperSecurityException diagnose(CuratorFramework client, String connectString) {
		try {
			if (client.getZookeeperClient().getZooKeeper().getState() == ZooKeeper.States.AUTH_FAILED) {
				return rejected(connectString, null);
			}
		}
		catch (Exception ex) {
			// no client yet: nothing to tell
		}
		return null;
	}

	private ZooKeeperSecurityException rejected(String connectString, @Nullable Throwable cause) {
		return new ZooKeeperSecurityException("ZooKeeper at " + connectString + " rejected " + this.description
				+ " (SASL authentication failed).", this.action, cause);
	}

	private static boolean pause() {
		try {
			TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE.toMillis());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public void destroy() {
		if (this.ownSection && this.closed.compareAndSet(false, true)) {
			JaasSections.remove(this.section);
		}
	}

}
