package dev.zklock.systemtest.register;

/**
 * One named counter and its fences. An exclusive access (read or write) must carry a token at
 * least as high as every token served before; a shared read, one at least as high as every token
 * of an exclusive access served before. An access that passes raises the fences to its token.
 * <p>
 * Reads are fenced, not only writes: otherwise a stale holder's write could land between the
 * next holder's read and its write, and one increment would be lost with both writes accepted.
 */
final class FencedValue {

	private final String name;

	private long value;

	private long fence;

	private long exclusiveFence;

	private long acceptedReads;

	private long acceptedWrites;

	private long rejectedReads;

	private long rejectedWrites;

	FencedValue(String name) {
		this.name = name;
	}

	synchronized long read(long token, Access access) {
		if (access == Access.NONE) {
			this.acceptedReads++;
			return this.value;
		}
		long limit = (access == Access.EXCLUSIVE) ? this.fence : this.exclusiveFence;
		if (token < limit) {
			this.rejectedReads++;
			throw new FenceRejectedException(this.name, token, limit);
		}
		raiseFences(token, access);
		this.acceptedReads++;
		return this.value;
	}

	void write(long token, long value) {
		write(token, Access.EXCLUSIVE, value);
	}

	synchronized void write(long token, Access access, long value) {
		if (access == Access.NONE) {
			this.value = value;
			this.acceptedWrites++;
			return;
		}
		if (token < this.fence) {
			this.rejectedWrites++;
			throw new FenceRejectedException(this.name, token, this.fence);
		}
		raiseFences(token, Access.EXCLUSIVE);
		this.value = value;
		this.acceptedWrites++;
	}

	synchronized RegisterState state() {
		return new RegisterState(this.name, this.value, this.fence, this.exclusiveFence, this.acceptedReads,
				this.acceptedWrites, this.rejectedReads, this.rejectedWrites);
	}

	private void raiseFences(long token, Access access) {
		this.fence = Math.max(this.fence, token);
		if (access == Access.EXCLUSIVE) {
			this.exclusiveFence = Math.max(this.exclusiveFence, token);
		}
	}

}
