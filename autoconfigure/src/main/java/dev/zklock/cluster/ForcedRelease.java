package dev.zklock.cluster;

import java.util.List;

/**
 * What a forced release did.
 *
 * @param key the key
 * @param nodes the lock nodes gone after the release, by name (deleted by their owner once it
 * had taken them from its holders, or by the releasing instance)
 * @param owners each owning instance, what became of the release of its nodes and which of
 * them are gone
 * @since 0.2.0
 */
public record ForcedRelease(String key, List<String> nodes, List<Owner> owners) {

	/**
	 * Return whether every owner's part ended as asked: confirmed, or deleted from an owner that
	 * cannot be told.
	 * @return whether every named node is gone
	 */
	public boolean complete() {
		return this.owners.stream().allMatch((owner) -> owner.outcome() == Outcome.CONFIRMED
				|| owner.outcome() == Outcome.NOT_TOLD);
	}

	/**
	 * What became of the release of one instance's nodes.
	 */
	public enum Outcome {

		/**
		 * The owner took the nodes from its holders (their calls end with
		 * {@link dev.zklock.LockLostException}), will never grant them again, and confirmed;
		 * then the nodes were deleted.
		 */
		CONFIRMED,

		/**
		 * The owner did not confirm within the wait (paused, cut off from ZooKeeper, or busy):
		 * nothing was deleted, since its holders may still be working. The notice stays: the
		 * owner applies it as soon as it reads it (its holders lose the nodes, then it deletes
		 * them), and the nodes go with its session if that ends first.
		 */
		NOT_CONFIRMED,

		/**
		 * The owner has no control node (not a zklock instance, or one that does not watch one):
		 * the nodes were deleted without telling it. Its holders, if any, are not told; their
		 * late writes are left to the fencing tokens.
		 */
		NOT_TOLD,

		/**
		 * The release failed part way (ZooKeeper refused or could not be reached): the nodes
		 * named in {@link Owner#nodes()} are gone, the others are not.
		 */
		FAILED

	}

	/**
	 * An instance whose nodes were named by the release.
	 *
	 * @param participant its participant id, empty when the node's data named none
	 * @param session its session, in hexadecimal
	 * @param told whether it confirmed, within the wait, that its holders lost the nodes
	 * ({@link Outcome#CONFIRMED})
	 * @param outcome what became of the release of its nodes
	 * @param nodes its nodes that are gone after the release, by name
	 * @param detail what happened, in a sentence
	 */
	public record Owner(String participant, String session, boolean told, Outcome outcome, List<String> nodes,
			String detail) {

	}

}
