package dev.zklock.systemtest.components;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.zklock.systemtest.check.CheckReport;
import dev.zklock.systemtest.check.Checker;
import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.HistoryReader;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;

/**
 * The intervals in which the processes of a test ran their leader-only components, as the
 * components logged them, read from the test's history folder at one moment. Times are
 * {@link System#nanoTime()}, one clock for every process of the machine, the test's included.
 *
 * @param history the history read
 */
record ComponentRuns(History history) {

	/**
	 * Read the history written so far.
	 * @param folder the folder of the history files
	 * @return the runs
	 */
	static ComponentRuns read(Path folder) {
		return new ComponentRuns(HistoryReader.read(folder));
	}

	/**
	 * Return the intervals of a process's component of a group, in time order.
	 * @param process the process
	 * @param group the group
	 * @return the intervals, its stop's included
	 */
	List<Operation> of(String process, String group) {
		return this.history.operations()
			.stream()
			.filter((operation) -> operation.kind() == OpKind.COMPONENT_RUN && operation.process().equals(process)
					&& operation.key().equals(group))
			.sorted(Comparator.comparingLong(ComponentRuns::startNanos))
			.toList();
	}

	/**
	 * Return the intervals of a process's component of a group that end after a time.
	 * @param process the process
	 * @param group the group
	 * @param nanos a {@link System#nanoTime()}
	 * @return the intervals
	 */
	List<Operation> endingAfter(String process, String group, long nanos) {
		return of(process, group).stream().filter((operation) -> endNanos(operation) > nanos).toList();
	}

	/**
	 * Return the intervals in which a process's component of a group ran its {@code stop()}.
	 * @param process the process
	 * @param group the group
	 * @return the intervals
	 */
	List<Operation> stops(String process, String group) {
		return of(process, group).stream()
			.filter((operation) -> RecordedComponent.STOPPING.equals(operation.detail()))
			.toList();
	}

	/**
	 * Return the first interval of a process's component of a group that starts after a time.
	 */
	Optional<Operation> firstStartingAfter(String process, String group, long nanos) {
		return of(process, group).stream().filter((operation) -> startNanos(operation) > nanos).findFirst();
	}

	/**
	 * Return the connection events of a process.
	 * @param process the process
	 * @param state the state, such as {@code SUSPENDED}
	 * @return the events
	 */
	List<Operation> connections(String process, String state) {
		return this.history.operations()
			.stream()
			.filter((operation) -> operation.kind() == OpKind.CONNECTION && operation.process().equals(process)
					&& state.equals(operation.detail()))
			.toList();
	}

	/**
	 * Check every invariant on the history, component exclusion among them: no two processes
	 * ran the component of one group at once.
	 * @return the report
	 */
	CheckReport check() {
		return Checker.check(this.history, List.of());
	}

	static long startNanos(Operation operation) {
		return Objects.requireNonNull(operation.startNanos(), () -> "no monotonic time in " + operation);
	}

	static long endNanos(Operation operation) {
		return Objects.requireNonNull(operation.endNanos(), () -> "no monotonic time in " + operation);
	}

}
