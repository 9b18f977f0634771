package dev.zklock.benchmarks.report;

import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's output, passed on unchanged, that also reads the machine's load averages and processor
 * time ({@link CpuAccount}) just before each benchmark (with all its forks) starts and just after
 * it ends.
 */
public final class LoadRecorder implements OutputFormat {

	private final OutputFormat output;

	private final Map<String, LoadAverage> before = new ConcurrentHashMap<>();

	private final Map<String, LoadAverage> after = new ConcurrentHashMap<>();

	private final Map<String, CpuAccount> cpuBefore = new ConcurrentHashMap<>();

	private final Map<String, CpuAccount> cpuAfter = new ConcurrentHashMap<>();

	/**
	 * Record the load around the benchmarks that write to the given output.
	 * @param output JMH's own output
	 */
	public LoadRecorder(OutputFormat output) {
		this.output = output;
	}

	/**
	 * Return the load averages before and after a benchmark.
	 * @param params the benchmark and its parameters
	 * @return the loads, {@link LoadAverage#UNKNOWN} where not recorded
	 */
	public Measurement.Load load(BenchmarkParams params) {
		CpuAccount start = this.cpuBefore.getOrDefault(params.id(), CpuAccount.UNKNOWN);
		CpuAccount end = this.cpuAfter.getOrDefault(params.id(), CpuAccount.UNKNOWN);
		return new Measurement.Load(this.before.getOrDefault(params.id(), LoadAverage.UNKNOWN),
				this.after.getOrDefault(params.id(), LoadAverage.UNKNOWN), end.otherProcessors(start));
	}

	@Override
	public void startBenchmark(BenchmarkParams params) {
		this.before.put(params.id(), LoadAverage.read());
		this.cpuBefore.put(params.id(), CpuAccount.read());
		this.output.startBenchmark(params);
	}

	@Override
	public void endBenchmark(BenchmarkResult result) {
		this.cpuAfter.put(result.getParams().id(), CpuAccount.read());
		this.after.put(result.getParams().id(), LoadAverage.read());
		this.output.endBenchmark(result);
	}

	@Override
	public void iteration(BenchmarkParams params, IterationParams iteration, int index) {
		this.output.iteration(params, iteration, index);
	}

	@Override
	public void iterationResult(BenchmarkParams params, IterationParams iteration, int index,
			IterationResult result) {
		this.output.iterationResult(params, iteration, index, result);
	}

	@Override
	public void startRun() {
		this.output.startRun();
	}

	@Override
	public void endRun(Collection<RunResult> results) {
		this.output.endRun(results);
	}

	@Override
	public void print(String text) {
		this.output.print(text);
	}

	@Override
	public void println(String text) {
		this.output.println(text);
	}

	@Override
	public void flush() {
		this.output.flush();
	}

	@Override
	public void close() {
		this.output.close();
	}

	@Override
	public void verbosePrintln(String text) {
		this.output.verbosePrintln(text);
	}

	@Override
	public void write(int b) {
		this.output.write(b);
	}

	@Override
	public void write(byte[] bytes) throws IOException {
		this.output.write(bytes);
	}

}
