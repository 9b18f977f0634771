package dev.zklock.systemtest.shedlock;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import dev.zklock.systemtest.history.HistoryReader;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;

/**
 * The runs of the {@link ReportJob} that the processes of one test logged, by cron tick. A run
 * belongs to the tick (a whole second) at or before its start: the scheduler starts it at the
 * tick or a little later, or a few milliseconds early when the executor's clock and the wall
 * clock drift apart, which {@link #EARLY_START} allows for. A run cut short by a kill counts,
 * from its start record.
 */
final class ScheduledRuns {

	/**
	 * The time between two ticks of {@link ReportJob#CRON}.
	 */
	static final Duration PERIOD = Duration.ofSeconds(1);

	/**
	 * How much earlier than its tick a run may start and still belong to it.
	 */
	static final Duration EARLY_START = Duration.ofMillis(100);

	/**
	 * The time a lock takes to be free for the other instances once its holder released it (the
	 * release reaching ZooKeeper).
	 */
	static final Duration RELEASE = Duration.ofMillis(100);

	private final List<Operation> starts;

	private final List<Operation> ends;

	private ScheduledRuns(List<Operation> runs) {
		this.starts = runs.stream().filter((run) -> ReportJob.STARTED.equals(run.detail())).toList();
		this.ends = runs.stream().filter((run) -> ReportJob.ENDED.equals(run.detail())).toList();
	}

	/**
	 * Read the runs logged to the history files of a folder.
	 * @param folder the folder
	 * @return the runs
	 */
	static ScheduledRuns read(Path folder) {
		return new ScheduledRuns(HistoryReader.read(folder)
			.operations()
			.stream()
			.filter((operation) -> operation.kind() == OpKind.SCHEDULED_RUN)
			.toList());
	}

	/**
	 * Return the tick a run that started at the given time belongs to.
	 * @param start the run's start, epoch milliseconds
	 * @return the tick, epoch milliseconds
	 */
	static long tickOf(long start) {
		long period = PERIOD.toMillis();
		return Math.floorDiv(start + EARLY_START.toMillis(), period) * period;
	}

	/**
	 * Return the start records of the runs, by tick.
	 * @return the runs of each tick that has one, in the order of the ticks
	 */
	NavigableMap<Long, List<Operation>> byTick() {
		return this.starts.stream()
			.collect(Collectors.groupingBy((run) -> tickOf(run.start()), TreeMap::new, Collectors.toList()));
	}

	/**
	 * Return the ticks that ran more than once, with their runs.
	 * @return the ticks and their runs
	 */
	Map<Long, List<Operation>> ranMoreThanOnce() {
		return byTick().entrySet()
			.stream()
			.filter((tick) -> tick.getValue().size() > 1)
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (one, other) -> one, TreeMap::new));
	}

	/**
	 * Return the ticks from the given one to the last that ran, that did not run.
	 * @param first the first tick, epoch milliseconds
	 * @return the ticks without a run
	 */
	List<Long> missedFrom(long first) {
		NavigableMap<Long, List<Operation>> byTick = byTick();
		if (byTick.isEmpty()) {
			return List.of();
		}
		return LongStream.iterate(first, (tick) -> tick <= byTick.lastKey(), (tick) -> tick + PERIOD.toMillis())
			.filter((tick) -> !byTick.containsKey(tick))
			.boxed()
			.toList();
	}

	/**
	 * Return the ticks from the given one to the last that ran, that did not run although the
	 * lock of the run before them was due to be free: that run had ended, and its
	 * {@code lockAtLeastFor} had passed, at least {@link #RELEASE} before the tick. Every
	 * instance skips a tick into which the run before it holds its lock (a run that takes
	 * longer than the time left to the next tick), as ShedLock means it to.
	 * @param first the first tick, epoch milliseconds
	 * @param lockAtLeastFor the job's {@code lockAtLeastFor}
	 * @return the ticks without a run, whose lock was free
	 */
	List<Long> missedWhileFree(long first, Duration lockAtLeastFor) {
		return missedFrom(first).stream().filter((tick) -> freeBefore(tick, lockAtLeastFor)).toList();
	}

	/**
	 * Return how many ticks from the given one on ran.
	 * @param first the first tick, epoch milliseconds
	 * @return the number of ticks
	 */
	long ticksFrom(long first) {
		return byTick().keySet().stream().filter((tick) -> tick >= first).count();
	}

	/**
	 * Return the number of runs of each process.
	 * @return the runs by process
	 */
	Map<String, Long> perProcess() {
		return this.starts.stream()
			.collect(Collectors.groupingBy(Operation::process, TreeMap::new, Collectors.counting()));
	}

	/**
	 * Return the latest start of a run after its tick.
	 * @return the time from the tick to the start
	 */
	Duration maxLateness() {
		return Duration.ofMillis(
				this.starts.stream().mapToLong((run) -> run.start() - tickOf(run.start())).max().orElse(0));
	}

	/**
	 * Return the first run that started at or after the given time and has not ended.
	 * @param since epoch milliseconds
	 * @return the start record of the run
	 */
	Optional<Operation> runningSince(long since) {
		return this.starts.stream().filter((run) -> run.start() >= since && !hasEnded(run)).findFirst();
	}

	/**
	 * Return the first run of a process other than the given one that started after the given
	 * time.
	 * @param since epoch milliseconds
	 * @param process the process left out
	 * @return the start record of the run
	 */
	Optional<Operation> firstStartAfter(long since, String process) {
		return this.starts.stream()
			.filter((run) -> run.start() > since && !run.process().equals(process))
			.min(Comparator.comparingLong(Operation::start));
	}

	/**
	 * Return whether a run logged its end.
	 * @param start the run's start record
	 * @return whether it ended
	 */
	boolean hasEnded(Operation start) {
		return endOf(start).isPresent();
	}

	private boolean freeBefore(long tick, Duration lockAtLeastFor) {
		Optional<Operation> before = this.starts.stream()
			.filter((run) -> run.start() < tick)
			.max(Comparator.comparingLong(Operation::start));
		if (before.isEmpty()) {
			return true;
		}
		Operation run = before.get();
		OptionalLong end = endOf(run);
		if (end.isEmpty()) {
			return false;
		}
		long due = Math.max(end.getAsLong(), run.start() + lockAtLeastFor.toMillis());
		return due <= tick - RELEASE.toMillis();
	}

	private OptionalLong endOf(Operation start) {
		return this.ends.stream()
			.filter((end) -> end.process().equals(start.process()) && end.start() == start.start())
			.mapToLong(Operation::end)
			.findFirst();
	}

	private String describe(Operation run) {
		OptionalLong end = endOf(run);
		return run.process() + " " + run.start() + ".." + (end.isPresent() ? Long.toString(end.getAsLong()) : "");
	}

	@Override
	public String toString() {
		return byTick().entrySet()
			.stream()
			.map((tick) -> tick.getKey() + ": " + tick.getValue().stream().map(this::describe).toList())
			.collect(Collectors.joining("\n"));
	}

}
