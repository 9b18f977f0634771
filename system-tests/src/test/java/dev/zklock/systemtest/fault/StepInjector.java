package dev.zklock.systemtest.fault;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.zklock.systemtest.fault.NemesisSchedule.Overlap;
import dev.zklock.systemtest.fault.NemesisSchedule.Step;
import org.jspecify.annotations.Nullable;

/**
 * Injects the steps of a {@link NemesisSchedule} into a {@link Cluster}: resolves their targets
 * (the leader, a given process) and runs two overlapping faults side by side.
 */
final class StepInjector {

	/**
	 * The lock keys whose holders a pause may hit.
	 */
	static final List<String> KEYS = List.of("counter", "mix", "kept");

	private final Cluster cluster;

	private final Faults faults;

	private final ServerFaults servers;

	StepInjector(Cluster cluster, Faults faults, ServerFaults servers) {
		this.cluster = cluster;
		this.faults = faults;
		this.servers = servers;
	}

	/**
	 * Inject one step of a schedule: one fault, or two that overlap, the second beginning the
	 * step's offset after the first. The targets of both are chosen before either begins, and
	 * differ.
	 * @return the faults, once all are healed
	 */
	List<Fault> apply(Step step) {
		Overlap overlap = step.overlap();
		if (overlap == null) {
			return List.of(apply(step, target(step, Set.of()), Set.of()));
		}
		Step second = overlap.step();
		AppProcess firstTarget = target(step, Set.of());
		AppProcess secondTarget = target(second, names(firstTarget));
		System.out.println("[nemesis] overlapping " + step.nemesis().label() + " and " + second.nemesis().label() + " "
				+ overlap.offset().toMillis() + " ms later");
		CompletableFuture<Fault> first = CompletableFuture.supplyAsync(
				() -> apply(step, firstTarget, names(secondTarget)),
				(task) -> new Thread(task, "nemesis-overlap").start());
		Cluster.sleep(overlap.offset().toMillis());
		Fault later = apply(second, secondTarget, names(firstTarget));
		return List.of(first.join(), later);
	}

	private Fault apply(Step step, @Nullable AppProcess target, Set<String> excluded) {
		Random random = new Random(step.choiceSeed());
		return switch (step.nemesis()) {
			case KILL_APP -> this.faults.killApp(required(target), step.duration());
			case STOP_APP -> this.faults.stopApp(required(target), step.duration());
			case PAUSE_HOLDER -> this.faults.pauseHolder(KEYS, step.duration(), random, excluded).fault();
			case PARTITION_APP -> this.faults.partitionApp(required(target), step.duration());
			case SLOW_APP -> this.faults.slowApp(required(target), step.delay(), step.duration());
			case KILL_ZK_FOLLOWER -> this.servers.killZooKeeper(false, step.duration(), random);
			case KILL_ZK_LEADER -> this.servers.killZooKeeper(true, step.duration(), random);
			case PAUSE_ZK -> this.servers.pauseZooKeeper(step.atLeader(), step.duration(), random);
			case PARTITION_ZK -> this.servers.partitionZooKeeper(step.duration(), random);
		};
	}

	/**
	 * Return the application process a step hits, other than the excluded ones, or none for a
	 * step that hits no given process (a pause finds its holder, a server fault its server).
	 */
	private @Nullable AppProcess target(Step step, Set<String> excluded) {
		if (!step.nemesis().targetsApp() || step.nemesis() == Nemesis.PAUSE_HOLDER) {
			return null;
		}
		AppProcess target = step.atLeader() ? this.faults.leaderApp() : this.cluster.app(step.app());
		if (!excluded.contains(target.name())) {
			return target;
		}
		List<AppProcess> others = this.cluster.apps().stream().filter((app) -> !excluded.contains(app.name())).toList();
		return others.get(Math.floorMod(step.choiceSeed(), others.size()));
	}

	private static AppProcess required(@Nullable AppProcess target) {
		if (target == null) {
			throw new IllegalStateException("A fault of an application process has no target");
		}
		return target;
	}

	private static Set<String> names(@Nullable AppProcess target) {
		return (target != null) ? Set.of(target.name()) : Set.of();
	}

}
