#!/usr/bin/env bash
# Runs the zklock benchmark set and writes docs/BENCHMARKS.md.
#
#   scripts/run-benchmarks.sh            the full run (about 50 minutes on 2 cores): run it on a quiet machine
#   scripts/run-benchmarks.sh --smoke    a few minutes, to check that everything runs; writes
#                                        benchmarks/target/BENCHMARKS-smoke.md, figures not for comparison
#   scripts/run-benchmarks.sh -Dbench.forks=3 -Dbench.iterations=10 -Dbench.setups=ensemble
#
# Settings, as -Dbench.<name>=<value> (defaults of the full run in brackets):
#   profile                 full | smoke                                  [full]
#   forks                   JMH forks per benchmark, 0 = inside this JVM  [2]
#   warmupIterations        warmup iterations per fork                    [2]
#   warmupTime              length of one warmup iteration                [2s]
#   iterations              measurement iterations per fork               [5]
#   iterationTime           length of one measurement iteration           [2s]
#   setups                  standalone,ensemble (3 servers)               [standalone,ensemble]
#   include                 regular expression of the JMH benchmarks      [all workloads]
#   requestCycles           lock cycles per library for workload 7, 0 = skip        [1000]
#   failoverRepetitions     failovers per kind of shutdown for workload 8, 0 = skip [5]
#   failoverSessionTimeout  session timeout of the election participants  [10s]
#   tickTime                ZooKeeper tick in milliseconds                [2000]
#   forceSync               yes | no (no is unsafe; the report says so)   [yes]
#   output                  the report file                               [docs/BENCHMARKS.md]
#   logs                    folder for the JMH output                     [benchmarks/target/benchmark-logs]
#   childJvmArgs            JVM options of the second JVMs (4) and election participants (8) [-Xmx512m]
#
# Needs a JDK 17 and Maven Central (the Maven wrapper fetches Maven). ZooKeeper servers and the second
# JVMs run on loopback only and end with the run.
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
for arg in "$@"; do
	case "$arg" in
		--smoke) args+=("-Dbench.profile=smoke") ;;
		-Dbench.*) args+=("$arg") ;;
		*) echo "Unknown argument: $arg (use --smoke or -Dbench.<name>=<value>)" >&2; exit 2 ;;
	esac
done

./mvnw -B -q -pl benchmarks -am package -DskipTests
classpath="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
exec java -Xms1g -Xmx1g -cp "$classpath" "-Dbench.command=scripts/run-benchmarks.sh${*:+ $*}" \
	${args[@]+"${args[@]}"} dev.zklock.benchmarks.BenchmarkRun
