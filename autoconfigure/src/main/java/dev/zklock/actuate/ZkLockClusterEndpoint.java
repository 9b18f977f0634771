package dev.zklock.actuate;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.zklock.cluster.ClusterRelease;
import dev.zklock.cluster.ClusterView;
import dev.zklock.cluster.ElectionGroupView;
import dev.zklock.cluster.ForcedRelease;
import dev.zklock.cluster.ForcedReleaseListener;
import dev.zklock.cluster.KeyQueue;
import dev.zklock.cluster.TooManyChildrenException;

import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The {@code zklockcluster} endpoint: the whole cluster as ZooKeeper shows it, asked of any
 * instance.
 * <ul>
 * <li>{@code GET /actuator/zklockcluster?prefix=stock:&limit=100&after=stock:41}: the keys that
 * have lock nodes now, in key order, each with its queue in order (the nodes that hold the key,
 * then those that wait): each node's owner (participant id), call, mode, when it was asked for
 * and created, whether it holds the key, and its session; and every election group with its
 * participants in takeover order, the leader and the epoch. At most {@code limit} keys with lock
 * nodes (100 by default, never more than {@value ClusterView#MAX_KEYS}), after looking at no more
 * than {@value ClusterView#MAX_LOOKED_AT} keys; {@code more} says whether keys follow, to ask for
 * with {@code after} set to {@code next}; {@code skipped} names the nodes under the base path that
 * encode no key.
 * <li>{@code GET /actuator/zklockcluster/{key}}, or {@code GET /actuator/zklockcluster?key=...}
 * for a key of any characters ({@code /} included): one key's queue.
 * <li>{@code DELETE /actuator/zklockcluster/{key}?node=...} or {@code ?owner=...} (or
 * {@code DELETE /actuator/zklockcluster?key=...&owner=...}): force-release one lock node of the
 * key, or every node of one instance on it ({@link ClusterRelease}). The owning instance is told
 * first through its control node; its holders lose the lock as on a lost session and it never
 * grants the nodes again; then the nodes are deleted. An owner that does not answer in time
 * keeps its nodes until it reads the notice or its session ends ({@code NOT_CONFIRMED}). Every
 * release, whatever its end, is recorded as an {@link AuditApplicationEvent} of type
 * {@value #RELEASE_AUDIT_TYPE} (stored when the application has an {@code AuditEventRepository}),
 * and logged at WARN. Its default access is read-only, as for Boot's own write operations: the
 * release also takes {@code management.endpoint.zklockcluster.access=unrestricted}.
 * </ul>
 * Plain reads, no watch left behind, none of a reply the instance's client cannot take
 * ({@link ClusterView}). Like every endpoint but {@code health}, it is not exposed until the
 * application exposes it; it shows keys and the names of calls: secure it as the other
 * management endpoints.
 *
 * @since 0.2.0
 */
@Endpoint(id = "zklockcluster", defaultAccess = Access.READ_ONLY)
public class ZkLockClusterEndpoint {

	/**
	 * How many keys a listing shows when it does not say.
	 */
	public static final int DEFAULT_LIMIT = 100;

	/**
	 * The type of the audit event of a forced release.
	 */
	public static final String RELEASE_AUDIT_TYPE = "ZKLOCK_FORCE_RELEASE";

	private final ClusterView view;

	private final @Nullable ClusterRelease release;

	private final @Nullable ApplicationEventPublisher publisher;

	private final ForcedReleaseListener listener;

	/**
	 * Create an endpoint that only reads.
	 * @param view reads the cluster
	 */
	public ZkLockClusterEndpoint(ClusterView view) {
		this(view, null, null, ForcedReleaseListener.NONE);
	}

	/**
	 * Create an endpoint that also releases.
	 * @param view reads the cluster
	 * @param release releases nodes, {@code null} for none
	 * @param publisher publishes the audit event of a release, {@code null} for none
	 * @param listener told of every release made (a counter)
	 */
	public ZkLockClusterEndpoint(ClusterView view, @Nullable ClusterRelease release,
			@Nullable ApplicationEventPublisher publisher, ForcedReleaseListener listener) {
		this.view = view;
		this.release = release;
		this.publisher = publisher;
		this.listener = listener;
	}

	/**
	 * Describe the keys and the election groups, or one key's queue.
	 * @param key the key whose queue to describe, {@code null} to describe the cluster
	 * @param prefix only the keys that begin with it
	 * @param after only the keys after it
	 * @param limit the most keys to show
	 * @return the description: a {@link ClusterDescriptor}, or the key's {@link KeyQueue}
	 */
	@ReadOperation
	public Object cluster(@Nullable String key, @Nullable String prefix, @Nullable String after,
			@Nullable Integer limit) {
		if (key != null) {
			return key(key);
		}
		ClusterView.Page page = read(() -> this.view.keys(prefix, after, (limit != null) ? limit : DEFAULT_LIMIT));
		return new ClusterDescriptor(page.keys(), page.more(), page.next(), page.skipped(),
				read(this.view::elections));
	}

	/**
	 * Describe one key's queue.
	 * @param key the key
	 * @return its queue
	 */
	@ReadOperation
	public KeyQueue key(@Selector String key) {
		if (key.isEmpty()) {
			throw new InvalidEndpointRequestException("A key must not be empty", "Empty key");
		}
		return read(() -> this.view.key(key));
	}

	private static <T> T read(Supplier<T> read) {
		try {
			return read.get();
		}
		catch (TooManyChildrenException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Too many children to list");
		}
	}

	/**
	 * Force-release one lock node of a key named by a parameter (a key of any characters), or
	 * every node of one instance on it.
	 * @param securityContext who asks
	 * @param key the key
	 * @param node the node's name
	 * @param owner the owning instance's participant id
	 * @return what was released
	 */
	@DeleteOperation
	public ForcedRelease releaseKey(SecurityContext securityContext, String key, @Nullable String node,
			@Nullable String owner) {
		return release(securityContext, key, node, owner);
	}

	/**
	 * Force-release one lock node of a key, or every node of one instance on it.
	 * @param securityContext who asks
	 * @param key the key
	 * @param node the node's name
	 * @param owner the owning instance's participant id
	 * @return what was released
	 */
	@DeleteOperation
	public ForcedRelease release(SecurityContext securityContext, @Selector String key, @Nullable String node,
			@Nullable String owner) {
		ClusterRelease release = this.release;
		if (release == null) {
			throw new InvalidEndpointRequestException("This instance has no lock template to release with",
					"No lock template");
		}
		if (key.isEmpty()) {
			throw new InvalidEndpointRequestException("A key must not be empty", "Empty key");
		}
		if ((node == null) == (owner == null)) {
			throw new InvalidEndpointRequestException("Name either 'node' or 'owner', not both",
					"Name either 'node' or 'owner'");
		}
		ForcedRelease released;
		try {
			released = release.release(key, node, owner);
		}
		catch (RuntimeException ex) {
			Map<String, Object> data = new LinkedHashMap<>();
			data.put("key", key);
			data.put("node", node);
			data.put("owner", owner);
			data.put("error", ex.toString());
			audit(securityContext, data);
			throw ex;
		}
		this.listener.released(released);
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("key", key);
		data.put("nodes", released.nodes());
		data.put("owners", released.owners().stream().map(ForcedRelease.Owner::participant).toList());
		data.put("outcomes", released.owners().stream()
			.map((owned) -> owned.participant() + ": " + owned.outcome() + " " + owned.nodes())
			.toList());
		audit(securityContext, data);
		return released;
	}

	private void audit(SecurityContext securityContext, Map<String, Object> data) {
		ApplicationEventPublisher publisher = this.publisher;
		if (publisher != null) {
			Principal principal = securityContext.getPrincipal();
			publisher.publishEvent(new AuditApplicationEvent((principal != null) ? principal.getName() : "anonymous",
					RELEASE_AUDIT_TYPE, data));
		}
	}

	/**
	 * The cluster as the endpoint shows it.
	 *
	 * @param keys the keys with lock nodes, in key order
	 * @param more whether keys follow the last one shown
	 * @param next the key to ask the next page {@code after}, {@code null} when nothing follows
	 * @param skipped names under the lock base path that encode no key, left out
	 * @param elections the election groups
	 */
	public record ClusterDescriptor(List<KeyQueue> keys, boolean more, @Nullable String next, List<String> skipped,
			List<ElectionGroupView> elections) implements OperationResponseBody {

	}

}
