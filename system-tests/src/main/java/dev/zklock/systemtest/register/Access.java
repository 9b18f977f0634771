package dev.zklock.systemtest.register;

/**
 * The kind of lock a register access is made under.
 */
public enum Access {

	/**
	 * Under an exclusive (write) lock: fenced by every token served before.
	 */
	EXCLUSIVE,

	/**
	 * Under a shared (read) lock: fenced by the tokens of exclusive accesses only, since shared
	 * holders run together and their tokens are in no particular order.
	 */
	SHARED,

	/**
	 * Not fenced at all: the token is ignored and no fence is raised, so only the lock protects
	 * the value. For a shadow counter that measures what the lock alone guarantees.
	 */
	NONE

}
