package dev.zklock.systemtest.register;

/**
 * What a register holds and has served, at one moment.
 *
 * @param name the register's name
 * @param value the counter's value
 * @param fence the highest token served, which exclusive accesses must reach
 * @param exclusiveFence the highest token of an exclusive access served, which shared reads
 * must reach
 * @param acceptedReads the number of reads served
 * @param acceptedWrites the number of writes applied
 * @param rejectedReads the number of reads rejected by the fence
 * @param rejectedWrites the number of writes rejected by the fence
 */
public record RegisterState(String name, long value, long fence, long exclusiveFence, long acceptedReads,
		long acceptedWrites, long rejectedReads, long rejectedWrites) {

	/**
	 * Return the number of accesses rejected by the fence.
	 * @return rejected reads and writes
	 */
	public long rejected() {
		return this.rejectedReads + this.rejectedWrites;
	}

}
