package dev.zklock.cluster;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * One lock node of a key, as ZooKeeper shows it to any instance.
 *
 * @param node the node's name
 * @param owner the participant id of the instance that owns it, or {@code null} when its data
 * names none (a node of a version before the owner was written)
 * @param call the call that asked for it, if its data names one
 * @param mode its mode
 * @param asked when its instance asked for it, if its data says
 * @param created when the server created it
 * @param granted whether it holds the key; otherwise it waits
 * @param session its session, in hexadecimal
 * @since 0.2.0
 */
public record LockNodeView(String node, @Nullable String owner, @Nullable String call, LockMode mode,
		@Nullable Instant asked, Instant created, boolean granted, String session) {

}
