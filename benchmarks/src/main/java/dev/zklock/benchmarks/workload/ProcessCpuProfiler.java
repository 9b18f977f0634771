package dev.zklock.benchmarks.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * The CPU time the benchmark's JVM spends per operation: every thread of the process (the
 * benchmark's, the ZooKeeper client's, the library's, the garbage collector's and the
 * compiler's) over an iteration, divided by the operations of the iteration. The servers run in
 * other processes and are not counted.
 */
public class ProcessCpuProfiler implements InternalProfiler {

	/** The name of the result, in nanoseconds per operation. */
	public static final String RESULT = "cpu.time.norm";

	private final com.sun.management.OperatingSystemMXBean system;

	private long before;

	public ProcessCpuProfiler() {
		OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
		if (!(bean instanceof com.sun.management.OperatingSystemMXBean system)) {
			throw new IllegalStateException("This JVM does not tell the process's CPU time (" + bean + ")");
		}
		this.system = system;
	}

	@Override
	public String getDescription() {
		return "CPU time of the benchmark's process per operation";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		this.before = this.system.getProcessCpuTime();
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		long cpu = this.system.getProcessCpuTime() - this.before;
		long operations = result.getMetadata().getAllOps();
		if (this.before < 0 || operations <= 0) {
			return List.of();
		}
		return List.of(new ScalarResult(RESULT, (double) cpu / operations, "ns/op", AggregationPolicy.AVG));
	}

}
