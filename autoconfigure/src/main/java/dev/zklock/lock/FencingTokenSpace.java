package dev.zklock.lock;

/**
 * How a fencing token is made of a zxid and a local count: {@code zxid × 4096 + count}. The zxid
 * is one ZooKeeper gave the node (the key node's {@code pzxid} at the node's grant, or the
 * {@code mzxid} of a write to the node); the count numbers the grants this instance made on the
 * node since, from 0 for the grant that took the zxid to {@link #MAX_COUNT}. Every zxid later
 * than the node's grants gives tokens above all of theirs, whatever their count, so the order of
 * tokens is the order of zxids first and of local grants second (see {@code docs/lock-core.md}).
 * <p>
 * A zxid is ZooKeeper's epoch (high 32 bits) and a counter within it (low 32 bits); a counter
 * about to roll over makes the ensemble elect a leader, and with it a new epoch, so zxids only
 * grow. Shifted by 12 bits, a zxid stays a positive {@code long} while its epoch is below
 * 2<sup>19</sup> (524,288 leader elections); beyond that no token can be given.
 */
final class FencingTokenSpace {

	/**
	 * The bits of a token that hold the local count.
	 */
	static final int COUNT_BITS = 12;

	/**
	 * The highest local count: a node needs a new zxid (a write) after that many grants.
	 */
	static final int MAX_COUNT = (1 << COUNT_BITS) - 1;

	private static final long MAX_ZXID = Long.MAX_VALUE >>> COUNT_BITS;

	private FencingTokenSpace() {
	}

	/**
	 * Return the token of the given zxid and local count.
	 * @param zxid a zxid ZooKeeper gave the node
	 * @param count the grants made on the node since that zxid, at most {@link #MAX_COUNT}
	 * @return the token
	 * @throws IllegalStateException if the zxid's epoch is too large for a token
	 */
	static long token(long zxid, int count) {
		if (zxid <= 0 || zxid > MAX_ZXID) {
			throw new IllegalStateException("ZooKeeper's zxid 0x" + Long.toHexString(zxid) + " (epoch " + (zxid >>> 32)
					+ ") is beyond what a fencing token can hold (epochs below " + ((MAX_ZXID >>> 32) + 1)
					+ "): no fencing token can be given on this ensemble");
		}
		if (count < 0 || count > MAX_COUNT) {
			throw new IllegalArgumentException("A local count is between 0 and " + MAX_COUNT + ": " + count);
		}
		return (zxid << COUNT_BITS) | count;
	}

	/**
	 * Return the zxid a token was made of.
	 * @param token the token
	 * @return its zxid
	 */
	static long zxid(long token) {
		return token >>> COUNT_BITS;
	}

	/**
	 * Return the local count of a token.
	 * @param token the token
	 * @return its count
	 */
	static int count(long token) {
		return (int) (token & MAX_COUNT);
	}

}
