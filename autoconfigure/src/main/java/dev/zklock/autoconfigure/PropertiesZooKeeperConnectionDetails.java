package dev.zklock.autoconfigure;

/**
 * {@link ZooKeeperConnectionDetails} backed by {@link ZkLockProperties}.
 */
class PropertiesZooKeeperConnectionDetails implements ZooKeeperConnectionDetails {

	private final ZkLockProperties properties;

	PropertiesZooKeeperConnectionDetails(ZkLockProperties properties) {
		this.properties = properties;
	}

	@Override
	public String getConnectString() {
		return this.properties.getConnectString();
	}

}
