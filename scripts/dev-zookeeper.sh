#!/usr/bin/env bash
#
# A development ZooKeeper server that outlives any one application: a standalone server on
# 127.0.0.1 (port 2181 by default), run from the jars of the ZooKeeper server the build uses
# (Maven resolves them), its data under target/dev-zookeeper/ so that locks and elections survive
# a restart of the server. Runs in the foreground; Ctrl-C stops it.
#
#   scripts/dev-zookeeper.sh            # ZooKeeper on 127.0.0.1:2181
#   ZK_PORT=22181 scripts/dev-zookeeper.sh
#   scripts/dev-zookeeper.sh --clean    # forget the data of earlier runs first
#
# Then start applications with zklock.connect-string=127.0.0.1:2181 (and, for an application that
# enables the embedded server, zklock.embedded.enabled=false). The server's tick is 500 ms, so
# sessions may last from 1 s to 2 min: short enough to see a failover in seconds.
#
# Needs a JDK 17 or later.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ZK_PORT=${ZK_PORT:-2181}
WORK="$ROOT/target/dev-zookeeper"

fail() {
	echo "dev-zookeeper: $*" >&2
	exit 1
}

if [[ "${1:-}" == "--clean" ]]; then
	rm -rf "$WORK"
elif [[ -n "${1:-}" ]]; then
	fail "unknown argument '$1' (only --clean)"
fi
mkdir -p "$WORK/data"

if (exec 3<>"/dev/tcp/127.0.0.1/$ZK_PORT") 2>/dev/null; then
	fail "port $ZK_PORT on 127.0.0.1 is in use (a server already running?); choose another with ZK_PORT"
fi

if [[ ! -s "$WORK/classpath.txt" || "$ROOT/test-support/pom.xml" -nt "$WORK/classpath.txt" \
		|| "$ROOT/pom.xml" -nt "$WORK/classpath.txt" ]]; then
	echo "dev-zookeeper: resolving the ZooKeeper server's jars with Maven"
	(cd "$ROOT" && ./mvnw -B -q -pl test-support dependency:build-classpath -Dmdep.includeScope=runtime \
		-Dmdep.outputFile="$WORK/classpath.txt" >"$WORK/maven.log" 2>&1) \
		|| { cat "$WORK/maven.log" >&2; fail "Maven could not resolve the ZooKeeper jars"; }
fi

cat > "$WORK/zoo.cfg" <<CFG
tickTime=500
minSessionTimeout=1000
maxSessionTimeout=120000
dataDir=$WORK/data
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=ruok,srvr,stat
CFG

cat > "$WORK/logback.xml" <<'XML'
<configuration>
  <appender name="console" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n</pattern></encoder>
  </appender>
  <logger name="org.apache.zookeeper.server.ZooKeeperServerMain" level="INFO"/>
  <root level="WARN"><appender-ref ref="console"/></root>
</configuration>
XML

echo "dev-zookeeper: ZooKeeper on 127.0.0.1:$ZK_PORT, data in $WORK/data; Ctrl-C stops it"
exec java -Xmx256m -Dlogback.configurationFile="$WORK/logback.xml" -Dzookeeper.admin.enableServer=false \
	-cp "$(cat "$WORK/classpath.txt")" org.apache.zookeeper.server.ZooKeeperServerMain "$WORK/zoo.cfg"
