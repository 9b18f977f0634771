package dev.zklock.lock;

import java.time.Instant;

import dev.zklock.LockMode;

/**
 * A lock this instance keeps after its last call released it, as operations tools show it.
 *
 * @param key the key
 * @param mode the mode of the kept node
 * @param since when the node was granted
 * @param state {@code VALID}, {@code IN_DOUBT} or {@code LOST}
 */
public record KeptLockInfo(String key, LockMode mode, Instant since, String state) {
}
