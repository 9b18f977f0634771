package dev.zklock.sample.stock;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of an asynchronous reservation, with the lock each part of the work saw.
 *
 * @param sku the SKU
 * @param reserved the units reserved
 * @param available the units left
 * @param body the lock the method's body saw, and fenced the row with
 * @param laterStage the lock the later stage saw, on another thread, and wrote the row with
 * @param afterRelease the lock a stage that ran after the call had completed saw: always
 * {@code null}, since the call had released it
 */
public record LaterReservation(String sku, int reserved, int available, LockSeen body, LockSeen laterStage,
		@Nullable LockSeen afterRelease) {

	LaterReservation afterRelease(@Nullable LockSeen seen) {
		return new LaterReservation(this.sku, this.reserved, this.available, this.body, this.laterStage, seen);
	}

}
