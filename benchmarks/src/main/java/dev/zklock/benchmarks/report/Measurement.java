package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

import dev.zklock.benchmarks.library.Library;

/**
 * The figures of one JMH benchmark method with one set of parameters: one value per
 * measurement iteration of every fork, from sampled times of every operation.
 *
 * @param benchmark the benchmark class
 * @param method the benchmark method
 * @param library the library under test
 * @param params the other parameters, by name
 * @param threads the benchmark threads
 * @param throughput operations per second of all threads together, per iteration
 * @param p50Micros median time of an operation in microseconds, per iteration
 * @param p99Micros 99th percentile of that time, per iteration
 */
public record Measurement(String benchmark, String method, Library library, Map<String, String> params, int threads,
		List<Double> throughput, List<Double> p50Micros, List<Double> p99Micros) {

	private static final String LIBRARY_PARAM = "library";

	/**
	 * Take the figures out of JMH's results.
	 * @param results the results of a JMH run
	 * @return one measurement per benchmark method and parameters
	 */
	public static List<Measurement> of(Collection<RunResult> results) {
		List<Measurement> measurements = new ArrayList<>();
		for (RunResult result : results) {
			measurements.add(of(result));
		}
		return measurements;
	}

	private static Measurement of(RunResult result) {
		BenchmarkParams params = result.getParams();
		if (params.getMode() != Mode.SampleTime) {
			throw new IllegalStateException(params.getBenchmark() + " runs in mode " + params.getMode()
					+ "; the report reads sampled times only");
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
		for (BenchmarkResult fork : result.getBenchmarkResults()) {
			for (IterationResult iteration : fork.getIterationResults()) {
				Result<?> sampled = iteration.getPrimaryResult();
				double meanNanos = sampled.getScore() * nanosPerUnit;
				throughput.add(params.getThreads() * 1e9 / meanNanos);
				p50.add(sampled.getStatistics().getPercentile(50) * nanosPerUnit / 1000);
				p99.add(sampled.getStatistics().getPercentile(99) * nanosPerUnit / 1000);
			}
		}
		return new Measurement(benchmark.substring(0, dot), benchmark.substring(dot + 1),
				Library.of(params.getParam(LIBRARY_PARAM)), others, params.getThreads(), throughput, p50, p99);
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
