package dev.zklock.sample.stock;

/**
 * Thrown for a quantity below one.
 */
public class InvalidQuantityException extends RuntimeException {

	public InvalidQuantityException(int quantity) {
		super("The quantity must be at least 1, but was " + quantity);
	}

}
