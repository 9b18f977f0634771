package dev.zklock.autoconfigure;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.zklock.leader.LeaderTestMode;
import dev.zklock.lock.LockNodeNames;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.Ordered;

/**
 * Configuration properties for zklock.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("zklock")
public class ZkLockProperties {

	/**
	 * Whether to enable the zklock auto-configuration.
	 */
	private boolean enabled = true;

	/**
	 * ZooKeeper servers to connect to, as 'host:port[,host:port...]'.
	 */
	private String connectString = "localhost:2181";

	/**
	 * Curator namespace (a chroot) applied to every path the client uses.
	 */
	private @Nullable String namespace;

	/**
	 * Session timeout to request from ZooKeeper. The server may negotiate it into its own bounds.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(30);

	/**
	 * Time to wait for a connection to ZooKeeper.
	 */
	private Duration connectionTimeout = Duration.ofSeconds(10);

	/**
	 * Whether to wait at startup, up to the connection timeout, for a connection to ZooKeeper
	 * and fail the startup without one. When false, the application starts anyway and the
	 * client connects in the background.
	 */
	private boolean failFast = true;

	/**
	 * How @ZkLocked and @ZkLeader methods are advised: 'proxy' (Spring AOP proxies, calls from
	 * outside the bean only) or 'aspectj' (aspects woven from the zklock-aspects module, also
	 * self-invoked and private methods; the proxy advisors are then not registered).
	 */
	private AdviceMode adviceMode = AdviceMode.PROXY;

	private final Retry retry = new Retry();

	private final Auth auth = new Auth();

	private final Ssl ssl = new Ssl();

	private final Sasl sasl = new Sasl();

	private final Acl acl = new Acl();

	private final Embedded embedded = new Embedded();

	private final Lock lock = new Lock();

	private final Leader leader = new Leader();

	private final Metrics metrics = new Metrics();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public AdviceMode getAdviceMode() {
		return this.adviceMode;
	}

	public void setAdviceMode(AdviceMode adviceMode) {
		this.adviceMode = adviceMode;
	}

	public String getConnectString() {
		return this.connectString;
	}

	public void setConnectString(String connectString) {
		this.connectString = connectString;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	public boolean isFailFast() {
		return this.failFast;
	}

	public void setFailFast(boolean failFast) {
		this.failFast = failFast;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Auth getAuth() {
		return this.auth;
	}

	public Ssl getSsl() {
		return this.ssl;
	}

	public Sasl getSasl() {
		return this.sasl;
	}

	public Acl getAcl() {
		return this.acl;
	}

	public Embedded getEmbedded() {
		return this.embedded;
	}

	public Lock getLock() {
		return this.lock;
	}

	public Leader getLeader() {
		return this.leader;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	/**
	 * Exponential back-off for ZooKeeper operations that fail with a connection error.
	 */
	public static class Retry {

		/**
		 * Time to wait before the first retry.
		 */
		private Duration baseSleep = Duration.ofMillis(100);

		/**
		 * Longest time to wait between two retries.
		 */
		private Duration maxSleep = Duration.ofSeconds(5);

		/**
		 * Maximum number of retries of one operation.
		 */
		private int maxRetries = 10;

		public Duration getBaseSleep() {
			return this.baseSleep;
		}

		public void setBaseSleep(Duration baseSleep) {
			this.baseSleep = baseSleep;
		}

		public Duration getMaxSleep() {
			return this.maxSleep;
		}

		public void setMaxSleep(Duration maxSleep) {
			this.maxSleep = maxSleep;
		}

		public int getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

	}

	/**
	 * ZooKeeper authentication. When a scheme is set, every node the library creates carries
	 * creator-only ACLs.
	 */
	public static class Auth {

		/**
		 * Authentication scheme, for example 'digest'.
		 */
		private @Nullable String scheme;

		/**
		 * Credentials for the scheme, for example 'user:password' for 'digest'.
		 */
		private @Nullable String credentials;

		public @Nullable String getScheme() {
			return this.scheme;
		}

		public void setScheme(@Nullable String scheme) {
			this.scheme = scheme;
		}

		public @Nullable String getCredentials() {
			return this.credentials;
		}

		public void setCredentials(@Nullable String credentials) {
			this.credentials = credentials;
		}

	}

	/**
	 * TLS to ZooKeeper, set for this client only (no JVM-wide system property is used).
	 */
	public static class Ssl {

		/**
		 * Name of the SSL bundle ('spring.ssl.bundle.*') whose trust material verifies the
		 * servers and whose key, if any, is the client certificate. When set, the client
		 * connects over TLS.
		 */
		private @Nullable String bundle;

		/**
		 * Whether to check that a server's certificate names the host the client connects to.
		 */
		private boolean hostnameVerification = true;

		public @Nullable String getBundle() {
			return this.bundle;
		}

		public void setBundle(@Nullable String bundle) {
			this.bundle = bundle;
		}

		public boolean isHostnameVerification() {
			return this.hostnameVerification;
		}

		public void setHostnameVerification(boolean hostnameVerification) {
			this.hostnameVerification = hostnameVerification;
		}

	}

	/**
	 * SASL authentication to ZooKeeper, for this client only: DIGEST-MD5 with a user name and
	 * password, or a login section of the JVM's JAAS configuration (Kerberos, for example).
	 */
	public static class Sasl {

		/**
		 * User name of a DIGEST-MD5 login, as the server's JAAS 'Server' section lists it
		 * ('user_&lt;name&gt;'). Needs 'zklock.sasl.password'; no JAAS file is needed on the
		 * client.
		 */
		private @Nullable String username;

		/**
		 * Password of the DIGEST-MD5 login. Kept in memory only.
		 */
		private @Nullable String password;

		/**
		 * Name of a section of the JVM's JAAS configuration ('-Djava.security.auth.login.config')
		 * to log in with instead of a user name and password, for example a Kerberos login from
		 * a keytab.
		 */
		private @Nullable String loginContext;

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		public @Nullable String getLoginContext() {
			return this.loginContext;
		}

		public void setLoginContext(@Nullable String loginContext) {
			this.loginContext = loginContext;
		}

	}

	/**
	 * ACLs of the nodes zklock creates. When the client authenticates (digest credentials, a
	 * SASL login or a client certificate), its own identity gets full rights and no other
	 * client gets any, besides those listed here.
	 */
	public static class Acl {

		/**
		 * Identities, as 'scheme:id' (for example 'x509:CN=orders-admin' or
		 * 'digest:ops:&lt;base64 SHA-1 digest&gt;'), that may also change and delete the nodes.
		 */
		private List<String> owners = new ArrayList<>();

		/**
		 * Identities, as 'scheme:id' (for example 'x509:CN=monitor'), that may read the nodes
		 * and list their children.
		 */
		private List<String> readers = new ArrayList<>();

		public List<String> getOwners() {
			return this.owners;
		}

		public void setOwners(List<String> owners) {
			this.owners = owners;
		}

		public List<String> getReaders() {
			return this.readers;
		}

		public void setReaders(List<String> readers) {
			this.readers = readers;
		}

	}

	/**
	 * An embedded ZooKeeper server, for development, demos and tests.
	 */
	public static class Embedded {

		/**
		 * Whether to start a real ZooKeeper server inside the application and connect to it.
		 */
		private boolean enabled;

		/**
		 * Client port of the embedded server; 0 picks a free port.
		 */
		private int port;

		/**
		 * Data folder of the embedded server. By default a temporary folder, removed at
		 * shutdown.
		 */
		private @Nullable File dataDir;

		private final EmbeddedSsl ssl = new EmbeddedSsl();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public @Nullable File getDataDir() {
			return this.dataDir;
		}

		public void setDataDir(@Nullable File dataDir) {
			this.dataDir = dataDir;
		}

		public EmbeddedSsl getSsl() {
			return this.ssl;
		}

		/**
		 * TLS of the embedded server.
		 */
		public static class EmbeddedSsl {

			/**
			 * Name of the SSL bundle whose key is the embedded server's certificate; its trust
			 * store, if any, holds the authorities of the client certificates the server then
			 * requires. When set, the server listens for TLS connections only (through JVM-wide
			 * zookeeper.ssl.* system properties, set while it runs).
			 */
			private @Nullable String bundle;

			public @Nullable String getBundle() {
				return this.bundle;
			}

			public void setBundle(@Nullable String bundle) {
				this.bundle = bundle;
			}

		}

	}

	/**
	 * Locks taken by {@code @ZkLocked} and the lock template.
	 */
	public static class Lock {

		/**
		 * Path under which lock nodes are created, one child node per key.
		 */
		private String basePath = "/zklock/locks";

		/**
		 * Time to wait for a lock when the annotation or call does not say.
		 */
		private Duration waitTime = Duration.ofSeconds(30);

		/**
		 * Whether to interrupt the thread holding a lock when the lock is lost with the
		 * session.
		 */
		private boolean interruptOnLost;

		/**
		 * How long a call may hold a lock before one WARN log names the key, the call and the
		 * holding thread's stack, and the health details list it; none by default.
		 */
		private @Nullable Duration longHoldWarning;

		/**
		 * Order of the lock advice among other advisors. The default runs it outside a
		 * transaction, so the lock is taken before the transaction begins and released after
		 * it commits.
		 */
		private int order = Ordered.LOWEST_PRECEDENCE - 100;

		/**
		 * Name of the Executor bean that runs the work of asynchronous and reactive locked
		 * calls once their lock is held, and completes their futures. By default, the
		 * application's task executor ('applicationTaskExecutor', which Spring Boot makes of
		 * virtual threads when spring.threads.virtual.enabled=true) if there is one, else a pool
		 * of the lock template's own.
		 */
		private @Nullable String asyncExecutor;

		/**
		 * How this instance names its lock nodes, so that its locks exclude another recipe's
		 * on the same paths: 'read-write-lock' as Curator's InterProcessReadWriteLock names
		 * its children (its write lock and readers exclude zklock's), or 'mutex' as Curator's
		 * InterProcessMutex and Spring Integration's ZookeeperLockRegistry name theirs, for a
		 * fleet that moves from them to zklock one instance at a time. Nodes of either naming
		 * are obeyed whatever the setting.
		 */
		private LockNodeNames nodeNames = LockNodeNames.READ_WRITE_LOCK;

		private final Handoff handoff = new Handoff();

		private final Keep keep = new Keep();

		public Handoff getHandoff() {
			return this.handoff;
		}

		public Keep getKeep() {
			return this.keep;
		}

		public String getBasePath() {
			return this.basePath;
		}

		public void setBasePath(String basePath) {
			this.basePath = basePath;
		}

		public Duration getWaitTime() {
			return this.waitTime;
		}

		public void setWaitTime(Duration waitTime) {
			this.waitTime = waitTime;
		}

		public boolean isInterruptOnLost() {
			return this.interruptOnLost;
		}

		public void setInterruptOnLost(boolean interruptOnLost) {
			this.interruptOnLost = interruptOnLost;
		}

		public @Nullable Duration getLongHoldWarning() {
			return this.longHoldWarning;
		}

		public void setLongHoldWarning(@Nullable Duration longHoldWarning) {
			this.longHoldWarning = longHoldWarning;
		}

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

		public @Nullable String getAsyncExecutor() {
			return this.asyncExecutor;
		}

		public LockNodeNames getNodeNames() {
			return this.nodeNames;
		}

		public void setNodeNames(LockNodeNames nodeNames) {
			this.nodeNames = nodeNames;
		}

		public void setAsyncExecutor(@Nullable String asyncExecutor) {
			this.asyncExecutor = asyncExecutor;
		}

		/**
		 * How the calls of this instance pass a held lock to each other.
		 */
		public static class Handoff {

			/**
			 * Whether calls of this instance that want the same key queue locally and pass the
			 * lock to each other without going through ZooKeeper. When false, every call
			 * creates and deletes a lock node of its own.
			 */
			private boolean enabled = true;

			/**
			 * How many more local grants of a key this instance may make once another instance
			 * waits for it, before it releases the key.
			 */
			private int maxGrants = 32;

			/**
			 * How long this instance may go on granting a key locally once another instance
			 * waits for it, before it releases the key.
			 */
			private Duration maxTime = Duration.ofMillis(100);

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public int getMaxGrants() {
				return this.maxGrants;
			}

			public void setMaxGrants(int maxGrants) {
				this.maxGrants = maxGrants;
			}

			public Duration getMaxTime() {
				return this.maxTime;
			}

			public void setMaxTime(Duration maxTime) {
				this.maxTime = maxTime;
			}

		}

		/**
		 * Locks kept by this instance after its last call released them.
		 */
		public static class Keep {

			/**
			 * Time this instance keeps a lock after its last call released it, while no other
			 * instance asks for the key, so that its next call needs no ZooKeeper request.
			 * Zero releases at once. Requires local handoff.
			 */
			private Duration idleTime = Duration.ZERO;

			/**
			 * Number of idle locks this instance keeps at most.
			 */
			private int maxKeys = 1000;

			public Duration getIdleTime() {
				return this.idleTime;
			}

			public void setIdleTime(Duration idleTime) {
				this.idleTime = idleTime;
			}

			public int getMaxKeys() {
				return this.maxKeys;
			}

			public void setMaxKeys(int maxKeys) {
				this.maxKeys = maxKeys;
			}

		}

	}

	/**
	 * Leader election for {@code @ZkLeader} and the leadership API.
	 */
	public static class Leader {

		/**
		 * Path under which elections run, one child node per group.
		 */
		private String basePath = "/zklock/leaders";

		/**
		 * Group used by '@ZkLeader' when it names none. Defaults to 'spring.application.name',
		 * or 'application' when that is not set.
		 */
		private @Nullable String defaultGroup;

		/**
		 * Id this instance uses in elections. Defaults to a readable id unique per instance,
		 * made of the application name, host name and process id.
		 */
		private @Nullable String participantId;

		/**
		 * Order of the leader-only advice among other advisors.
		 */
		private int order = Ordered.LOWEST_PRECEDENCE - 200;

		/**
		 * Groups to join at startup besides those that '@ZkLeader' methods name.
		 */
		private List<String> groups = new ArrayList<>();

		/**
		 * How this instance takes part in elections: 'election' for a real one, or, in tests
		 * only, 'always' or 'never' to lead every group or none, without ZooKeeper.
		 */
		private LeaderTestMode testMode = LeaderTestMode.ELECTION;

		/**
		 * Time that yielding, leaving the elections and closing the application wait for the
		 * '@ZkLeaderComponent' beans of a group to stop before the leadership is given up.
		 */
		private Duration componentStopTimeout = Duration.ofSeconds(30);

		/**
		 * Group whose leadership the application's readiness follows, for active-passive
		 * deployments: the application refuses traffic while it does not lead the group.
		 * Joined like the groups of 'zklock.leader.groups'.
		 */
		private @Nullable String readinessGroup;

		/**
		 * Minimum number of participants by group, below which the 'zklockLeadership' health
		 * indicator lists the group under 'belowMinimum' and the 'zklock.leader.participants'
		 * gauge shows it, so that a missing standby is noticed before the leader goes too.
		 */
		private Map<String, Integer> minParticipants = new LinkedHashMap<>();

		public Map<String, Integer> getMinParticipants() {
			return this.minParticipants;
		}

		public void setMinParticipants(Map<String, Integer> minParticipants) {
			this.minParticipants = minParticipants;
		}

		public @Nullable String getReadinessGroup() {
			return this.readinessGroup;
		}

		public void setReadinessGroup(@Nullable String readinessGroup) {
			this.readinessGroup = readinessGroup;
		}

		public Duration getComponentStopTimeout() {
			return this.componentStopTimeout;
		}

		public void setComponentStopTimeout(Duration componentStopTimeout) {
			this.componentStopTimeout = componentStopTimeout;
		}

		public String getBasePath() {
			return this.basePath;
		}

		public void setBasePath(String basePath) {
			this.basePath = basePath;
		}

		public @Nullable String getDefaultGroup() {
			return this.defaultGroup;
		}

		public void setDefaultGroup(@Nullable String defaultGroup) {
			this.defaultGroup = defaultGroup;
		}

		public @Nullable String getParticipantId() {
			return this.participantId;
		}

		public void setParticipantId(@Nullable String participantId) {
			this.participantId = participantId;
		}

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

		public List<String> getGroups() {
			return this.groups;
		}

		public void setGroups(List<String> groups) {
			this.groups = groups;
		}

		public LeaderTestMode getTestMode() {
			return this.testMode;
		}

		public void setTestMode(LeaderTestMode testMode) {
			this.testMode = testMode;
		}

	}

	/**
	 * Micrometer metrics of locks and leadership.
	 */
	public static class Metrics {

		/**
		 * Tag to add to lock metrics besides the mode and outcome: none, or the key expression
		 * of the '@ZkLocked' method as 'key' (never the evaluated key, whose values are
		 * unbounded).
		 */
		private KeyTag keyTag = KeyTag.NONE;

		/**
		 * Largest number of distinct 'key' tag values; calls beyond it are tagged 'other'.
		 */
		private int maxKeyTags = 100;

		public KeyTag getKeyTag() {
			return this.keyTag;
		}

		public void setKeyTag(KeyTag keyTag) {
			this.keyTag = keyTag;
		}

		public int getMaxKeyTags() {
			return this.maxKeyTags;
		}

		public void setMaxKeyTags(int maxKeyTags) {
			this.maxKeyTags = maxKeyTags;
		}

		/**
		 * What lock metrics tell keys apart by.
		 */
		public enum KeyTag {

			/**
			 * No key tag.
			 */
			NONE,

			/**
			 * A 'key' tag holding the '@ZkLocked' key expression's text; calls of the lock
			 * template that name nothing are tagged 'none'.
			 */
			EXPRESSION

		}

	}

}
