package dev.zklock.actuate;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.leader.LeaderComponentInfo;
import dev.zklock.leader.LeaderComponents;
import dev.zklock.lock.HeldLockInfo;
import dev.zklock.lock.KeptLockInfo;
import dev.zklock.lock.LockCounts;
import dev.zklock.lock.WaitingCallInfo;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code zklock} endpoint: what this instance holds, waits for and leads, and a way to step
 * down as the leader of a group.
 * <ul>
 * <li>{@code GET /actuator/zklock}: the connection to ZooKeeper, the locks held (key, mode,
 * holding thread, since when, fencing token, {@code VALID} or {@code IN_DOUBT}), the calls
 * waiting for a lock, and for each leadership group whether this instance leads it, the current
 * leader, the participants in takeover order, the epoch of the current term and the leader-only
 * components tied to the group with their state.
 * <li>{@code GET /actuator/zklock/{group}}: one group.
 * <li>{@code POST /actuator/zklock/{group}}: yield the leadership of the group to the next
 * participant, for a rolling deploy or maintenance. The group's leader-only components
 * ({@code @ZkLeaderComponent}) are stopped before the election node is given up; the next
 * leader starts its own.
 * </ul>
 * Like every endpoint but {@code health}, it is not exposed until the application exposes it
 * ({@code management.endpoints.web.exposure.include=zklock}). Its default access is read-only,
 * so yielding also takes {@code management.endpoint.zklock.access=unrestricted}. Lock keys and
 * thread names may tell something about the data being worked on: secure the endpoint as the
 * other management endpoints.
 *
 * @since 0.1.0
 */
@Endpoint(id = "zklock", defaultAccess = Access.READ_ONLY)
public class ZkLockEndpoint {

	private final ConnectionStatus connection;

	private final @Nullable ZkLockTemplate template;

	private final @Nullable ZkLeadership leadership;

	private final @Nullable LeaderComponents components;

	/**
	 * Create an endpoint.
	 * @param client the ZooKeeper client
	 * @param template the lock template, if locks are configured
	 * @param leadership the elections, if leader election is configured
	 */
	public ZkLockEndpoint(CuratorFramework client, @Nullable ZkLockTemplate template,
			@Nullable ZkLeadership leadership) {
		this(client, template, leadership, null);
	}

	/**
	 * Create an endpoint that also shows the leader-only components of each group.
	 * @param client the ZooKeeper client
	 * @param template the lock template, if locks are configured
	 * @param leadership the elections, if leader election is configured
	 * @param components the leader-only components, if leader election is configured
	 * @since 0.2.0
	 */
	public ZkLockEndpoint(CuratorFramework client, @Nullable ZkLockTemplate template,
			@Nullable ZkLeadership leadership, @Nullable LeaderComponents components) {
		this.connection = new ConnectionStatus(client);
		this.template = template;
		this.leadership = leadership;
		this.components = components;
	}

	/**
	 * Describe the connection, locks and leadership of this instance.
	 * @return the description
	 */
	@ReadOperation
	public ZkLockDescriptor zklock() {
		ZkLockTemplate template = this.template;
		LocksDescriptor locks = (template != null)
				? new LocksDescriptor(template.heldLocks(), template.waitingCalls(), template.keptLocks(),
						template.keysOthersWaitFor(), template.lockCounts())
				: null;
		ZkLeadership leadership = this.leadership;
		LeadershipDescriptor leaders = null;
		if (leadership != null) {
			Map<String, GroupDescriptor> groups = new TreeMap<>();
			leadership.groups().forEach((group) -> groups.put(group, describe(leadership, group)));
			leaders = new LeadershipDescriptor(leadership.participantId(), groups);
		}
		return new ZkLockDescriptor(connection(), locks, leaders);
	}

	/**
	 * Describe this instance's part in the election of one group.
	 * @param group the group
	 * @return the description, or {@code null} when this instance takes no part in it
	 */
	@ReadOperation
	public @Nullable GroupDescriptor group(@Selector String group) {
		ZkLeadership leadership = this.leadership;
		return (leadership != null && leadership.groups().contains(group)) ? describe(leadership, group) : null;
	}

	/**
	 * Step down as the leader of a group and rejoin its election behind the other participants.
	 * @param group the group
	 * @return whether this instance was the leader and stepped down
	 */
	@WriteOperation
	public YieldDescriptor yieldLeadership(@Selector String group) {
		ZkLeadership leadership = this.leadership;
		if (leadership == null || !leadership.groups().contains(group)) {
			throw new InvalidEndpointRequestException("This instance takes no part in the election of group '"
					+ group + "'", "No such leadership group");
		}
		return new YieldDescriptor(group, leadership.participantId(), leadership.yieldLeadership(group));
	}

	private ConnectionDescriptor connection() {
		return new ConnectionDescriptor(this.connection.state(), this.connection.connectString(),
				this.connection.sessionId(), this.connection.transport(), this.connection.authenticatedAs());
	}

	private GroupDescriptor describe(ZkLeadership leadership, String group) {
		boolean leader = leadership.isLeader(group);
		LeaderComponents components = this.components;
		List<LeaderComponentInfo> tied = (components != null) ? components.describe(group) : List.of();
		if (this.connection.isClosed() || !this.connection.isConnected()) {
			return new GroupDescriptor(leader, null, List.of(), null, tied, "not connected to ZooKeeper");
		}
		try {
			List<String> participants = leadership.participants(group);
			OptionalLong epoch = leadership.epoch(group);
			return new GroupDescriptor(leader, participants.isEmpty() ? null : participants.get(0), participants,
					epoch.isPresent() ? epoch.getAsLong() : null, tied, null);
		}
		catch (ZkLockException ex) {
			return new GroupDescriptor(leader, null, List.of(), null, tied, ex.getMessage());
		}
	}

	/**
	 * What the endpoint shows of this instance.
	 *
	 * @param connection the connection to ZooKeeper
	 * @param locks the locks, or {@code null} when locks are not configured
	 * @param leadership the leadership, or {@code null} when leader election is not configured
	 */
	public record ZkLockDescriptor(ConnectionDescriptor connection, @Nullable LocksDescriptor locks,
			@Nullable LeadershipDescriptor leadership) implements OperationResponseBody {

	}

	/**
	 * The connection to ZooKeeper.
	 *
	 * @param state the last connection state ({@code CONNECTED}, {@code SUSPENDED},
	 * {@code RECONNECTED}, {@code LOST}, {@code READ_ONLY}) or {@code CLOSED}
	 * @param connectString the servers
	 * @param sessionId the session id in hexadecimal, or {@code null} when not connected
	 * @param transport {@code TLS} or {@code plaintext}
	 * @param authenticatedAs the identities the server knows the session by, as
	 * {@code scheme:user}, never a secret
	 */
	public record ConnectionDescriptor(String state, String connectString, @Nullable String sessionId,
			String transport, List<String> authenticatedAs) {

	}

	/**
	 * The locks of this instance.
	 *
	 * @param held one entry per call holding a key
	 * @param waiting the calls of this instance waiting for a key
	 * @param kept the locks this instance keeps with no call holding them
	 * @param othersWaitFor the keys this instance holds or keeps while another instance waits
	 * for them
	 * @param counts local handoffs, reuses of kept locks and kept locks released because another
	 * instance asked, since startup
	 */
	public record LocksDescriptor(List<HeldLockInfo> held, List<WaitingCallInfo> waiting, List<KeptLockInfo> kept,
			List<String> othersWaitFor, LockCounts counts) {

	}

	/**
	 * This instance's leadership.
	 *
	 * @param participantId the id of this instance in elections
	 * @param groups each group by name
	 */
	public record LeadershipDescriptor(String participantId, Map<String, GroupDescriptor> groups) {

	}

	/**
	 * The election of one group.
	 *
	 * @param leader whether this instance leads the group
	 * @param currentLeader the participant id of the current leader, or {@code null} when unknown
	 * or there is none
	 * @param participants the participant ids, the leader first, then in takeover order
	 * @param epoch the fencing token of the current term, or {@code null} when unknown
	 * @param components the leader-only components of the group on this instance, with their
	 * state
	 * @param error why the election could not be read, or {@code null}
	 */
	public record GroupDescriptor(boolean leader, @Nullable String currentLeader, List<String> participants,
			@Nullable Long epoch, List<LeaderComponentInfo> components, @Nullable String error)
			implements OperationResponseBody {

	}

	/**
	 * The result of a yield.
	 *
	 * @param group the group
	 * @param participantId the id of this instance
	 * @param yielded whether this instance was the leader and stepped down
	 */
	public record YieldDescriptor(String group, String participantId, boolean yielded)
			implements OperationResponseBody {

	}

}
