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
	 * The end of the name of a register accessed without the fence ({@link Access#NONE}), the
	 * shadow of the fenced register named by the rest.
	 */
	public static final String UNFENCED_SUFFIX = ".unfenced";

	/**
	 * Return the name of the unfenced shadow of a register.
	 * @param name the fenced register's name
	 * @return the shadow's name
	 */
	public static String unfenced(String name) {
		return name + UNFENCED_SUFFIX;
	}

	/**
	 * Return whether this register is accessed without the fence.
	 * @return whether its name ends in {@value #UNFENCED_SUFFIX}
	 */
	public boolean isUnfenced() {
		return this.name.endsWith(UNFENCED_SUFFIX);
	}

	/**
	 * Return the writes lost: accepted but overwritten by a write based on an older read.
	 * @return accepted writes minus the value
	 */
	public long lostUpdates() {
		return this.acceptedWrites - this.value;
	}

	/**
	 * Return the number of accesses rejected by the fence.
	 * @return rejected reads and writes
	 */
	public long rejected() {
		return this.rejectedReads + this.rejectedWrites;
	}

}
