package dev.zklock.lock;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import dev.zklock.LockMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data {@link NodeOwners} makes for a lock node is the text {@link NodeOwner#toBytes()}
 * writes for the same owner, whatever the instant's precision, day or year, and whichever owner
 * came before.
 */
class NodeOwnersTests {

	@Test
	void writesTheTextOfTheOwnerRecord() {
		NodeOwners owners = new NodeOwners("inventory@host-1:4242");
		List<Instant> instants = new ArrayList<>(List.of(Instant.parse("2026-11-25T16:02:11Z"),
				Instant.parse("2026-11-25T16:02:11.100Z"), Instant.parse("2026-11-25T16:02:11.123400Z"),
				Instant.parse("2026-11-25T16:02:11.000000001Z"), Instant.parse("2026-11-25T23:59:59.999999999Z"),
				Instant.parse("2026-11-26T00:00:00.000001Z"), Instant.parse("0000-01-01T00:00:00Z"),
				Instant.parse("9999-12-31T23:59:59.5Z"), Instant.parse("+10000-01-01T00:00:00Z"),
				Instant.parse("-0001-12-31T10:00:00Z"), Instant.EPOCH, Instant.now(),
				Instant.now().truncatedTo(ChronoUnit.MILLIS), Instant.now().truncatedTo(ChronoUnit.SECONDS)));
		SplittableRandom random = new SplittableRandom(37);
		for (int i = 0; i < 10_000; i++) {
			Instant instant = Instant.ofEpochSecond(random.nextLong(-100_000_000_000L, 300_000_000_000L),
					random.nextInt(1_000_000_000));
			instants.add(switch (i % 4) {
				case 0 -> instant;
				case 1 -> instant.truncatedTo(ChronoUnit.MILLIS);
				case 2 -> instant.truncatedTo(ChronoUnit.MICROS);
				default -> instant.truncatedTo(ChronoUnit.SECONDS);
			});
		}
		String[] calls = { null, "StockService#reserve", "with\nnew line" };
		for (int i = 0; i < instants.size(); i++) {
			Instant asked = instants.get(i);
			String call = calls[i % calls.length];
			LockMode mode = LockMode.values()[i % 2];
			if (i % 1000 == 999) {
				owners.participant("inventory@host-" + i);
			}
			assertThat(new String(owners.data(call, mode, asked)))
				.as("%s, %s, %s", asked, call, mode)
				.isEqualTo(new String(new NodeOwner(owners.participant(), call, mode, asked).toBytes()));
		}
	}

}
