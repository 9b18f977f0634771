package dev.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.jspecify.annotations.Nullable;

/**
 * ACLs of every node the auto-configured client creates: full rights for the client's own
 * authenticated identity (its digest user, or its certificate's subject through the server's
 * x509 provider), full rights for the configured owners, read rights for the configured
 * readers, and none for anyone else.
 */
final class NodeAclProvider implements ACLProvider {

	private final List<ACL> acl;

	private NodeAclProvider(List<ACL> acl) {
		// Not List.copyOf: ZooKeeper asks the list whether it contains null.
		this.acl = Collections.unmodifiableList(new ArrayList<>(acl));
	}

	/**
	 * Create the provider from the {@code zklock.acl.*} properties.
	 * @param properties the ACL properties
	 * @param authenticated whether the client authenticates, so that its own identity gets
	 * full rights
	 * @return the provider, or {@code null} when nodes are to keep ZooKeeper's open ACL
	 */
	static @Nullable NodeAclProvider of(ZkLockProperties.Acl properties, boolean authenticated) {
		List<ACL> acl = new ArrayList<>();
		if (authenticated) {
			acl.addAll(ZooDefs.Ids.CREATOR_ALL_ACL);
		}
		properties.getOwners().forEach((id) -> acl.add(new ACL(ZooDefs.Perms.ALL, parse("zklock.acl.owners", id))));
		properties.getReaders().forEach((id) -> acl.add(new ACL(ZooDefs.Perms.READ, parse("zklock.acl.readers", id))));
		return acl.isEmpty() ? null : new NodeAclProvider(acl);
	}

	@Override
	public List<ACL> getDefaultAcl() {
		return this.acl;
	}

	@Override
	public List<ACL> getAclForPath(String path) {
		return this.acl;
	}

	private static Id parse(String property, String value) {
		int colon = value.indexOf(':');
		if (colon <= 0 || colon == value.length() - 1) {
			throw new ZooKeeperSecurityException(
					"'" + value + "' in " + property + " is not an ACL identity of the form 'scheme:id'.",
					"Write each entry of '" + property + "' as 'scheme:id', for example 'x509:CN=orders-admin', "
							+ "'digest:ops:<base64 SHA-1 digest of ops:password>', 'ip:10.0.0.0/8' or 'world:anyone'.",
					null);
		}
		return new Id(value.substring(0, colon), value.substring(colon + 1));
	}

}
