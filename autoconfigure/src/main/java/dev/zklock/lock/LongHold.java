package dev.zklock.lock;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * A lock held for a while, as operations tools show it.
 *
 * @param key the key
 * @param mode the mode
 * @param call the call that asked for the lock node (with local handoff, the node may have passed
 * to other calls since: the thread says which holds it now), {@code null} when unnamed
 * @param thread the holding thread's name, or a description of an asynchronous call
 * @param since when the call got the lock
 * @param stack the holding thread's stack when read, empty for an asynchronous call
 * @since 0.2.0
 */
public record LongHold(String key, LockMode mode, @Nullable String call, String thread, Instant since,
		List<StackTraceElement> stack) {

}
