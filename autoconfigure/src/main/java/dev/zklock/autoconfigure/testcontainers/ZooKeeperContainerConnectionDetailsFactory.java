package dev.zklock.autoconfigure.testcontainers;

import dev.zklock.autoconfigure.ZooKeeperConnectionDetails;
import org.testcontainers.containers.Container;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.springframework.util.ClassUtils;

/**
 * {@link ContainerConnectionDetailsFactory} that creates {@link ZooKeeperConnectionDetails}
 * from a {@code @ServiceConnection} container of the {@code zookeeper} image (or one named
 * {@code zookeeper} by the annotation), or from zklock-test's {@code ZooKeeperContainer}
 * whatever its image.
 */
class ZooKeeperContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<Container<?>, ZooKeeperConnectionDetails> {

	private static final String CONNECTION_NAME = "zookeeper";

	private static final String ZOOKEEPER_CONTAINER = "dev.zklock.test.testcontainers.ZooKeeperContainer";

	private static final int CLIENT_PORT = 2181;

	ZooKeeperContainerConnectionDetailsFactory() {
		super(CONNECTION_NAME);
	}

	@Override
	protected boolean sourceAccepts(ContainerConnectionSource<Container<?>> source, Class<?> requiredContainerType,
			Class<?> requiredConnectionDetailsType) {
		if (super.sourceAccepts(source, requiredContainerType, requiredConnectionDetailsType)) {
			return true;
		}
		ClassLoader classLoader = getClass().getClassLoader();
		return ClassUtils.isPresent(ZOOKEEPER_CONTAINER, classLoader)
				&& source.accepts(ANY_CONNECTION_NAME, ClassUtils.resolveClassName(ZOOKEEPER_CONTAINER, classLoader),
						requiredConnectionDetailsType);
	}

	@Override
	protected ZooKeeperConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
		return new ZooKeeperContainerConnectionDetails(source);
	}

	/**
	 * {@link ZooKeeperConnectionDetails} backed by a {@link ContainerConnectionSource}.
	 */
	private static final class ZooKeeperContainerConnectionDetails extends ContainerConnectionDetails<Container<?>>
			implements ZooKeeperConnectionDetails {

		private ZooKeeperContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
			super(source);
		}

		@Override
		public String getConnectString() {
			Container<?> container = getContainer();
			return container.getHost() + ":" + container.getMappedPort(CLIENT_PORT);
		}

	}

}
