package dev.zklock.actuate;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.cluster.ClusterView;
import dev.zklock.cluster.ElectionGroupView;
import dev.zklock.cluster.KeyQueue;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code zklockcluster} endpoint: the whole cluster as ZooKeeper shows it, asked of any
 * instance.
 * <ul>
 * <li>{@code GET /actuator/zklockcluster?prefix=stock:&limit=100&after=stock:41}: the keys that
 * have lock nodes now, in key order, each with its queue in order (the nodes that hold the key,
 * then those that wait): each node's owner (participant id), call, mode, when it was asked for
 * and created, whether it holds the key, and its session; and every election group with its
 * participants in takeover order, the leader and the epoch. At most {@code limit} keys (100 by
 * default, never more than {@value ClusterView#MAX_KEYS}); {@code more} says whether keys follow,
 * to ask for with {@code after} set to the last key shown.
 * <li>{@code GET /actuator/zklockcluster/{key}}: one key's queue.
 * </ul>
 * Plain reads, no watch left behind: one request to list the keys, then for each key one for its
 * children and one for each of its lock nodes. Like every endpoint but {@code health}, it is not
 * exposed until the application exposes it; it shows keys and the names of calls: secure it as
 * the other management endpoints.
 *
 * @since 0.2.0
 */
@Endpoint(id = "zklockcluster", defaultAccess = Access.READ_ONLY)
public class ZkLockClusterEndpoint {

	/**
	 * How many keys a listing shows when it does not say.
	 */
	public static final int DEFAULT_LIMIT = 100;

	private final ClusterView view;

	/**
	 * Create an endpoint.
	 * @param view reads the cluster
	 */
	public ZkLockClusterEndpoint(ClusterView view) {
		this.view = view;
	}

	/**
	 * Describe the keys and the election groups.
	 * @param prefix only the keys that begin with it
	 * @param after only the keys after it
	 * @param limit the most keys to show
	 * @return the description
	 */
	@ReadOperation
	public ClusterDescriptor cluster(@Nullable String prefix, @Nullable String after, @Nullable Integer limit) {
		ClusterView.Page page = this.view.keys(prefix, after, (limit != null) ? limit : DEFAULT_LIMIT);
		return new ClusterDescriptor(page.keys(), page.more(), this.view.elections());
	}

	/**
	 * Describe one key's queue.
	 * @param key the key
	 * @return its queue
	 */
	@ReadOperation
	public KeyQueue key(@Selector String key) {
		return this.view.key(key);
	}

	/**
	 * The cluster as the endpoint shows it.
	 *
	 * @param keys the keys with lock nodes, in key order
	 * @param more whether keys follow the last one shown
	 * @param elections the election groups
	 */
	public record ClusterDescriptor(List<KeyQueue> keys, boolean more,
			List<ElectionGroupView> elections) implements OperationResponseBody {

	}

}
