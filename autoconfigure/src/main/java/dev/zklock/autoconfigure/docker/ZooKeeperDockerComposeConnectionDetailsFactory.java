package dev.zklock.autoconfigure.docker;

import dev.zklock.autoconfigure.ZooKeeperConnectionDetails;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * {@link DockerComposeConnectionDetailsFactory} that creates {@link ZooKeeperConnectionDetails}
 * from a Docker Compose service running the {@code zookeeper} image, or labelled
 * {@code org.springframework.boot.service-connection: zookeeper}.
 */
class ZooKeeperDockerComposeConnectionDetailsFactory
		extends DockerComposeConnectionDetailsFactory<ZooKeeperConnectionDetails> {

	private static final String CONNECTION_NAME = "zookeeper";

	private static final int CLIENT_PORT = 2181;

	ZooKeeperDockerComposeConnectionDetailsFactory() {
		super(CONNECTION_NAME);
	}

	@Override
	protected ZooKeeperConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
		return new ZooKeeperDockerComposeConnectionDetails(source.getRunningService());
	}

	/**
	 * {@link ZooKeeperConnectionDetails} backed by a {@code zookeeper} {@link RunningService}.
	 */
	static class ZooKeeperDockerComposeConnectionDetails extends DockerComposeConnectionDetails
			implements ZooKeeperConnectionDetails {

		private final String connectString;

		ZooKeeperDockerComposeConnectionDetails(RunningService service) {
			super(service);
			this.connectString = service.host() + ":" + service.ports().get(CLIENT_PORT);
		}

		@Override
		public String getConnectString() {
			return this.connectString;
		}

	}

}
