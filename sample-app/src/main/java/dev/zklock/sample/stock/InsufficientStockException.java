package dev.zklock.sample.stock;

/**
 * Thrown when a reservation asks for more units than are available.
 */
public class InsufficientStockException extends RuntimeException {

	private final int requested;

	private final int available;

	public InsufficientStockException(String sku, int requested, int available) {
		super("Cannot reserve " + requested + " of '" + sku + "': " + available + " available");
		this.requested = requested;
		this.available = available;
	}

	public int getRequested() {
		return this.requested;
	}

	public int getAvailable() {
		return this.available;
	}

}
