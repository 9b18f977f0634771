package dev.zklock.sample.stock;

/**
 * The outcome of a reservation.
 *
 * @param sku the SKU
 * @param reserved the units reserved
 * @param available the units left
 * @param fencingToken the fencing token of the lock the reservation was made under
 */
public record Reservation(String sku, int reserved, int available, long fencingToken) {

}
