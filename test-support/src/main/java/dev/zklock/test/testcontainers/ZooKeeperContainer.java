package dev.zklock.test.testcontainers;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.apache.zookeeper.Version;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A ZooKeeper server in a container of the official {@code zookeeper} image, tagged with the
 * version of the ZooKeeper client on the class path (the one zklock brings), so that client and
 * server match. It is ready once the server answers a client's request, not merely when its
 * port is open (a starting server accepts connections before it serves them).
 * <p>
 * With Spring Boot's {@code @ServiceConnection} it supplies zklock's
 * {@code ZooKeeperConnectionDetails}, so the application needs no {@code zklock.*} property:
 *
 * <pre class="code">
 * &#64;Container
 * &#64;ServiceConnection
 * static ZooKeeperContainer zookeeper = new ZooKeeperContainer();
 * </pre>
 *
 * Another image whose repository is {@code zookeeper}, or one declared compatible with
 * {@link DockerImageName#asCompatibleSubstituteFor(String)}, can be used in its place.
 *
 * @since 0.1.0
 */
public class ZooKeeperContainer extends GenericContainer<ZooKeeperContainer> {

	/**
	 * The official image, without a tag.
	 */
	public static final DockerImageName DEFAULT_IMAGE_NAME = DockerImageName.parse("zookeeper");

	/**
	 * The port on which ZooKeeper serves clients inside the container.
	 */
	public static final int CLIENT_PORT = 2181;

	/**
	 * Create a container of the official image at {@link #zooKeeperVersion()}.
	 */
	public ZooKeeperContainer() {
		this(DEFAULT_IMAGE_NAME.withTag(zooKeeperVersion()));
	}

	/**
	 * Create a container of the given image.
	 * @param imageName the image, {@code zookeeper} or an image compatible with it
	 */
	public ZooKeeperContainer(String imageName) {
		this(DockerImageName.parse(imageName));
	}

	/**
	 * Create a container of the given image.
	 * @param imageName the image, {@code zookeeper} or an image compatible with it
	 */
	public ZooKeeperContainer(DockerImageName imageName) {
		super(imageName);
		imageName.assertCompatibleWith(DEFAULT_IMAGE_NAME);
		withExposedPorts(CLIENT_PORT);
		waitingFor(new ZooKeeperServingWaitStrategy(CLIENT_PORT));
	}

	/**
	 * Publish the client port on the loopback interface only, at the given host port, or at a
	 * free one when it is 0. A fixed port keeps the server's address when the container is
	 * stopped and started again.
	 * @param hostPort the port on 127.0.0.1, or 0
	 * @return this container
	 */
	public ZooKeeperContainer withLoopbackPort(int hostPort) {
		Ports.Binding binding = (hostPort != 0) ? Ports.Binding.bindIpAndPort("127.0.0.1", hostPort)
				: Ports.Binding.bindIp("127.0.0.1");
		return withCreateContainerCmdModifier((command) -> command.getHostConfig()
			.withPortBindings(new PortBinding(binding, ExposedPort.tcp(CLIENT_PORT))));
	}

	/**
	 * Return the address clients connect to, as {@code host:port}.
	 * @return the connect string
	 */
	public String getConnectString() {
		return getHost() + ":" + getMappedPort(CLIENT_PORT);
	}

	/**
	 * Return the version of the ZooKeeper client on the class path, such as {@code 3.9.3}: the tag
	 * of the official image that matches it.
	 * @return the version
	 */
	public static String zooKeeperVersion() {
		String version = Version.getVersion();
		int qualifier = version.indexOf('-');
		return (qualifier > 0) ? version.substring(0, qualifier) : version;
	}

}
