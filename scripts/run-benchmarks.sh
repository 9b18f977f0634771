#!/usr/bin/env bash
# Runs the zklock benchmark set and writes docs/BENCHMARKS.md.
#
#   scripts/run-benchmarks.sh            the full run (about 1.5 hours on 2 cores): run it on a quiet
#                                        machine, from a clean checkout (the report records `git describe --dirty`)
#   scripts/run-benchmarks.sh --smoke    a few minutes, to check that everything runs; writes
#                                        benchmarks/target/BENCHMARKS-smoke.md, figures not for comparison
#   scripts/run-benchmarks.sh --rerun UncontendedBenchmark curator,zklock
#                                        one workload of the standalone server again, with the full run's
#                                        forks and iterations, for the libraries named (a row and its
#                                        baseline); writes benchmarks/target/BENCHMARKS-rerun.md (5 to 10 min)
#   scripts/run-benchmarks.sh --turns    workload 1i alone: the uncontended call, the floor and zklock's two
#                                        transactions without a lock taking turns in one JVM, 3 forks of 120 s warmup
#                                        and 50 measured rounds of 1 s turns, standalone server and 3-server ensemble;
#                                        writes benchmarks/target/BENCHMARKS-turns.md (about 30 min)
#   scripts/run-benchmarks.sh --tls      the uncontended lock of Curator and zklock over TLS against plaintext, on
#                                        the same server configuration (Netty, a TLS and a plaintext port), with the
#                                        full run's forks; writes benchmarks/target/BENCHMARKS-tls.md (5 to 10 min)
#
# Settings, as -Dbench.<name>=<value> (defaults of the full run in brackets):
#   profile                 full | smoke                                  [full]
#   forks                   JMH forks per benchmark, run as that many rounds of the whole set (one
#                           fork of each benchmark per round); 0 = inside this JVM [3]
#   warmupIterations        warmup iterations per fork                    [2]
#   warmupTime              length of one warmup iteration                [2s]
#   iterations              measurement iterations per fork               [5]
#   iterationTime           length of one measurement iteration           [2s]
#   setups                  standalone,ensemble (3 servers); standalone-netty and standalone-tls are one
#                           server with Netty and a TLS port, clients on its plaintext or its TLS port
#                                                                         [standalone,ensemble]
#   ensembleServer          follower | leader: the one server of the ensemble every client uses [follower]
#   include                 regular expression of the JMH benchmarks; empty for none [all workloads]
#   library                 library ids to run, comma-separated (JMH's library parameter) [all]
#   busyProcessors          processors that other processes than the run's own may keep busy, on average
#                           during a benchmark, before it is marked busy    [0.25]
#   turns                   measured rounds per fork of workload 1i (the uncontended call and the floor
#                           taking turns in one JVM, bench.forks JVMs one after the other), 0 = skip [0]
#   turnTime                length of one turn of workload 1i             [1s]
#   turnLibraries           libraries taking turns: floor, zklock, then any beside them
#                                              [floor,zklock,shape-two-multis-sync,shape-two-multis-named]
#   turnWarmup              warmup of each fork of workload 1i, in turns   [120s]
#   turnThreads             threads of each library's turns in workload 1i, one run after the other
#                           (more than one: as many threads on a key each), comma-separated [1]
#   requestCycles           lock cycles per library for workload 7, 0 = skip        [1000]
#   failoverRepetitions     failovers per kind of shutdown for workload 8, 0 = skip [10]
#   failoverSessionTimeout  session timeout of the election participants  [10s]
#   tickTime                ZooKeeper tick in milliseconds                [2000]
#   forceSync               yes | no (no is unsafe; the report says so)   [yes]
#   output                  the report file                               [docs/BENCHMARKS.md]
#   logs                    folder for the JMH output                     [benchmarks/target/benchmark-logs]
#   childJvmArgs            JVM options of the second JVMs (4) and election participants (8) [-Xmx512m]
#
# Needs a JDK 17 and Maven Central (the Maven wrapper fetches Maven). ZooKeeper servers and the second
# JVMs run on loopback only and end with the run; their files are kept in benchmarks/target/.
set -euo pipefail
cd "$(dirname "$0")/.."

command="scripts/run-benchmarks.sh${*:+ $*}"
args=()
while [ $# -gt 0 ]; do
	case "$1" in
		--smoke) args+=("-Dbench.profile=smoke") ;;
		--rerun)
			if [ $# -lt 3 ]; then
				echo "Usage: --rerun <benchmark class, e.g. UncontendedBenchmark> <library ids, e.g. curator,zklock>" >&2
				exit 2
			fi
			args+=("-Dbench.include=dev\\.zklock\\.benchmarks\\.workload\\.$2\\..*" "-Dbench.library=$3"
				"-Dbench.setups=standalone" "-Dbench.requestCycles=0" "-Dbench.failoverRepetitions=0"
				"-Dbench.output=benchmarks/target/BENCHMARKS-rerun.md")
			shift 2 ;;
		--turns)
			args+=("-Dbench.include=" "-Dbench.turns=50" "-Dbench.requestCycles=0" "-Dbench.failoverRepetitions=0"
				"-Dbench.output=benchmarks/target/BENCHMARKS-turns.md") ;;
		--tls)
			args+=("-Dbench.include=dev\\.zklock\\.benchmarks\\.workload\\.UncontendedBenchmark\\..*"
				"-Dbench.library=curator,zklock" "-Dbench.setups=standalone-netty,standalone-tls"
				"-Dbench.requestCycles=0" "-Dbench.failoverRepetitions=0"
				"-Dbench.output=benchmarks/target/BENCHMARKS-tls.md") ;;
		-Dbench.*) args+=("$1") ;;
		*) echo "Unknown argument: $1 (use --smoke, --rerun, --turns, --tls or -Dbench.<name>=<value>)" >&2; exit 2 ;;
	esac
	shift
done

./mvnw -B -q -pl benchmarks -am package -DskipTests
classpath="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
# The run's own files (the servers' data folders, JMH's lock file) go in the module's build output, not /tmp.
exec java -Xms1g -Xmx1g -cp "$classpath" "-Djava.io.tmpdir=$PWD/benchmarks/target" "-Dbench.command=$command" \
	${args[@]+"${args[@]}"} dev.zklock.benchmarks.BenchmarkRun
