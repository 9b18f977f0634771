package dev.zklock.cluster;

import java.util.List;

/**
 * What a forced release did.
 *
 * @param key the key
 * @param nodes the lock nodes deleted, by name
 * @param owners each owning instance and whether it confirmed that its holders know, before its
 * nodes were deleted
 * @since 0.2.0
 */
public record ForcedRelease(String key, List<String> nodes, List<Owner> owners) {

	/**
	 * An instance whose nodes were released.
	 *
	 * @param participant its participant id, {@code null} when the node's data named none
	 * @param session its session, in hexadecimal
	 * @param told whether it confirmed, within the wait, that its holders lost the nodes; when
	 * not (an instance paused, cut off, or of a version without control nodes) the nodes were
	 * deleted anyway, and its late writes are rejected by their fencing tokens
	 */
	public record Owner(String participant, String session, boolean told) {

	}

}
