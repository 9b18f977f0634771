package dev.zklock.sample.stock;

/**
 * Thrown when the database rejected a write because a later holder of the SKU's lock has
 * written the row: this instance lost its lock while it worked.
 */
public class StaleFencingTokenException extends RuntimeException {

	private final long fencingToken;

	public StaleFencingTokenException(String sku, long fencingToken) {
		super("The write to '" + sku + "' with fencing token " + fencingToken
				+ " was rejected: a later holder of the lock has written it");
		this.fencingToken = fencingToken;
	}

	public long getFencingToken() {
		return this.fencingToken;
	}

}
