package dev.zklock.sample.stock;

/**
 * Thrown for a SKU the stock table does not have.
 */
public class UnknownSkuException extends RuntimeException {

	public UnknownSkuException(String sku) {
		super("There is no SKU '" + sku + "'");
	}

}
