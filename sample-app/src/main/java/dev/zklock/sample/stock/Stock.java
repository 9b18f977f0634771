package dev.zklock.sample.stock;

/**
 * A SKU's row in the {@code stock} table.
 *
 * @param sku the SKU
 * @param available the units available
 * @param fence the highest fencing token that has written the row
 */
public record Stock(String sku, int available, long fence) {

}
