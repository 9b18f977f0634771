package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

import dev.zklock.benchmarks.workload.ProcessCpuProfiler;

/**
 * The figures of one JMH benchmark method with one set of parameters: one value per fork, each
 * over all measurement iterations of that fork, so that their spread is the spread between JVMs
 * rather than between the iterations of one. Lock cycles are sampled one by one (mode
 * {@code SampleTime}), which gives throughput and percentiles; calls too short to time one by
 * one are averaged (mode {@code AverageTime}).
 *
 * @param benchmark the benchmark class
 * @param method the benchmark method
 * @param library the id of the library under test
 * @param params the other parameters, by name
 * @param threads the benchmark threads
 * @param throughput operations per second of all threads together, per fork (sampled)
 * @param p50Micros median time of an operation in microseconds, per fork (sampled)
 * @param p99Micros 99th percentile of that time, per fork (sampled)
 * @param averageNanos average time of an operation in nanoseconds, per fork (averaged)
 * @param load the machine's load averages before and after the benchmark
 * @param cpuNanos CPU time of the benchmark's process per operation in nanoseconds, per fork
 * (none where not profiled)
 * @param allocatedBytes bytes allocated per operation, per fork (none where not profiled)
 */
public record Measurement(String benchmark, String method, String library, Map<String, String> params, int threads,
		List<Double> throughput, List<Double> p50Micros, List<Double> p99Micros, List<Double> averageNanos,
		Load load, List<Double> cpuNanos, List<Double> allocatedBytes) {

	private static final String LIBRARY_PARAM = "library";

	/** JMH's GC profiler's bytes allocated per operation. */
	private static final String ALLOCATED_PER_OPERATION = "gc.alloc.rate.norm";

	/**
	 * Create a measurement with no CPU time or allocation measured.
	 */
	public Measurement(String benchmark, String method, String library, Map<String, String> params, int threads,
			List<Double> throughput, List<Double> p50Micros, List<Double> p99Micros, List<Double> averageNanos,
			Load load) {
		this(benchmark, method, library, params, threads, throughput, p50Micros, p99Micros, averageNanos, load,
				List.of(), List.of());
	}

	/**
	 * The load around one benchmark: the load averages just before and just after it, and how
	 * many processors other processes than the run's own kept busy meanwhile.
	 *
	 * @param before the load averages just before its first fork started
	 * @param after the load averages just after its last fork ended
	 * @param otherProcessors the processors other processes used on average meanwhile, or
	 * {@link Double#NaN} where unknown
	 */
	public record Load(LoadAverage before, LoadAverage after, double otherProcessors) {

		/**
		 * Create a load with no reading of other processes.
		 * @param before the load averages before
		 * @param after the load averages after
		 */
		public Load(LoadAverage before, LoadAverage after) {
			this(before, after, Double.NaN);
		}

		/**
		 * Return whether other processes kept the machine busy during the benchmark.
		 * @param busyProcessors how many processors they may use before it counts as busy
		 * @return whether they did; {@code false} where unknown
		 */
		public boolean isBusy(double busyProcessors) {
			return this.otherProcessors > busyProcessors;
		}

	}

	/**
	 * Take the figures out of JMH's results.
	 * @param results the results of a JMH run
	 * @param loads the load around each benchmark
	 * @return one measurement per benchmark method and parameters
	 */
	public static List<Measurement> of(Collection<RunResult> results, Function<BenchmarkParams, Load> loads) {
		List<Measurement> measurements = new ArrayList<>();
		for (RunResult result : results) {
			measurements.add(of(result, loads.apply(result.getParams())));
		}
		return measurements;
	}

	/**
	 * Merge the measurements of several rounds: one measurement per benchmark case, with the
	 * values of every round's forks in round order, the load averages before its first round and
	 * after its last, and the most processors other processes used in any round.
	 * @param measurements the measurements of every round, in round order
	 * @return one measurement per case, in the order of their first round
	 */
	public static List<Measurement> merge(List<Measurement> measurements) {
		Map<List<Object>, Measurement> merged = new LinkedHashMap<>();
		for (Measurement measurement : measurements) {
			List<Object> key = List.of(measurement.benchmark, measurement.method, String.valueOf(measurement.library),
					measurement.params, measurement.threads);
			merged.merge(key, measurement, Measurement::followedBy);
		}
		return new ArrayList<>(merged.values());
	}

	private Measurement followedBy(Measurement later) {
		return new Measurement(this.benchmark, this.method, this.library, this.params, this.threads,
				concat(this.throughput, later.throughput), concat(this.p50Micros, later.p50Micros),
				concat(this.p99Micros, later.p99Micros), concat(this.averageNanos, later.averageNanos),
				new Load(this.load.before(), later.load.after(),
						mostKnown(this.load.otherProcessors(), later.load.otherProcessors())),
				concat(this.cpuNanos, later.cpuNanos), concat(this.allocatedBytes, later.allocatedBytes));
	}

	private static double mostKnown(double first, double second) {
		if (Double.isNaN(first)) {
			return second;
		}
		return Double.isNaN(second) ? first : Math.max(first, second);
	}

	private static List<Double> concat(List<Double> first, List<Double> second) {
		List<Double> both = new ArrayList<>(first);
		both.addAll(second);
		return both;
	}

	private static Measurement of(RunResult result, Load load) {
		BenchmarkParams params = result.getParams();
		if (params.getMode() != Mode.SampleTime && params.getMode() != Mode.AverageTime) {
			throw new IllegalStateException(params.getBenchmark() + " runs in mode " + params.getMode()
					+ "; the report reads sampled and average times only");
		}
		String benchmark = params.getBenchmark();
		int dot = benchmark.lastIndexOf('.');
		Map<String, String> others = new LinkedHashMap<>();
		for (String key : params.getParamsKeys()) {
			if (!key.equals(LIBRARY_PARAM)) {
				others.put(key, params.getParam(key));
			}
		}
		double nanosPerUnit = TimeUnit.NANOSECONDS.convert(1, params.getTimeUnit());
		List<Double> throughput = new ArrayList<>();
		List<Double> p50 = new ArrayList<>();
		List<Double> p99 = new ArrayList<>();
		List<Double> average = new ArrayList<>();
		List<Double> cpu = new ArrayList<>();
		List<Double> allocated = new ArrayList<>();
		for (BenchmarkResult fork : result.getBenchmarkResults()) {
			Map<String, Result> secondary = fork.getSecondaryResults();
			if (secondary.containsKey(ProcessCpuProfiler.RESULT)) {
				cpu.add(secondary.get(ProcessCpuProfiler.RESULT).getScore());
			}
			if (secondary.containsKey(ALLOCATED_PER_OPERATION)) {
				allocated.add(secondary.get(ALLOCATED_PER_OPERATION).getScore());
			}
			Result<?> primary = fork.getPrimaryResult();
			double meanNanos = primary.getScore() * nanosPerUnit;
			if (params.getMode() == Mode.AverageTime) {
				average.add(meanNanos);
				continue;
			}
			throughput.add(params.getThreads() * 1e9 / meanNanos);
			p50.add(primary.getStatistics().getPercentile(50) * nanosPerUnit / 1000);
			p99.add(primary.getStatistics().getPercentile(99) * nanosPerUnit / 1000);
		}
		return new Measurement(benchmark.substring(0, dot), benchmark.substring(dot + 1),
				params.getParam(LIBRARY_PARAM), others, params.getThreads(), throughput, p50, p99, average, load, cpu,
				allocated);
	}

	/**
	 * Return whether this measures the same case as another, but for the library.
	 * @param other the other measurement
	 * @return whether only the library differs
	 */
	public boolean sameCaseAs(Measurement other) {
		return this.benchmark.equals(other.benchmark) && this.method.equals(other.method)
				&& this.params.equals(other.params);
	}

}
