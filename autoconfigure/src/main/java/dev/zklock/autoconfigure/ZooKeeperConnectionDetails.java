package dev.zklock.autoconfigure;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details required to connect to a ZooKeeper ensemble. By default they come from the
 * {@code zklock.*} properties, or from the embedded server when it is enabled; define a bean of
 * this type to supply them from elsewhere (a test container, a service binding).
 *
 * @since 0.1.0
 */
public interface ZooKeeperConnectionDetails extends ConnectionDetails {

	/**
	 * Return the ZooKeeper servers to connect to, as {@code host:port[,host:port...]}.
	 * @return the connect string
	 */
	String getConnectString();

}
