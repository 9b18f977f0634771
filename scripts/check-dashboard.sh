#!/usr/bin/env bash
# Checks docs/grafana/zklock-dashboard.json against real metrics: runs two instances of the sample
# (the first on its embedded ZooKeeper server, the second against it) under a load that makes every
# kind of event the dashboard shows (waits and holds, timeouts, handoffs, a leader and a follower
# below and at the group's minimum, a long hold, a forced release and the lock it loses), scrapes
# their /actuator/prometheus with Debian's prometheus package, and evaluates every panel's query
# through Prometheus's HTTP API. Fails on a query that returns no series.
#
# Prometheus comes from Debian bookworm's package, fetched by apt-get download through a source
# list, package lists and cache of this script's own under target/ (the system's apt configuration
# is neither read nor changed); needs apt-get, dpkg-deb and Debian's archive keyring. Everything it
# makes stays under target/dashboard-check; everything it starts (loopback only) is stopped when it
# ends or is interrupted. Not part of the test suite: about two minutes, plus the sample's build
# (SKIP_BUILD=1 reuses the jar).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK="$ROOT/target/dashboard-check"
DASHBOARD="$ROOT/docs/grafana/zklock-dashboard.json"
JAR="$ROOT/sample-app/target/zklock-sample-app-0.1.0-SNAPSHOT.jar"
SUITE=${PROMETHEUS_SUITE:-bookworm}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
LOAD_SECONDS=${LOAD_SECONDS:-40}
PIDS=()

log() { echo "check-dashboard: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

mkdir -p "$WORK"

# 1. Prometheus, from Debian's package.
PROMETHEUS="$WORK/root/usr/bin/prometheus"
if [ ! -x "$PROMETHEUS" ]; then
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || fail "needs apt-get and dpkg-deb"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || fail "no $keyring (package debian-archive-keyring) to check Debian $SUITE's signature"
	apt="$WORK/apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/download"
	if id _apt >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
		chown -R _apt "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/download"
	fi
	cat > "$apt/prometheus.sources" <<EOF
Types: deb
URIs: $DEBIAN_MIRROR
Suites: $SUITE
Components: main
Signed-By: $keyring
EOF
	options=(-o "Dir::Etc::sourcelist=$apt/prometheus.sources" -o Dir::Etc::sourceparts=- \
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::Etc::preferencesparts=-)
	log "downloading Debian $SUITE's prometheus package"
	apt-get "${options[@]}" update -qq >"$apt/apt.log" 2>&1 || { cat "$apt/apt.log" >&2; fail "apt-get update"; }
	(cd "$apt/download" && apt-get "${options[@]}" download prometheus >>"$apt/apt.log" 2>&1) \
		|| { cat "$apt/apt.log" >&2; fail "apt-get download prometheus"; }
	dpkg-deb -x "$apt/download"/prometheus_*.deb "$WORK/root"
	[ -x "$PROMETHEUS" ] || fail "the package has no usr/bin/prometheus"
fi
log "$("$PROMETHEUS" --version 2>&1 | head -1)"

# 2. The sample.
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f "$JAR" ]; then
	log "building the sample"
	(cd "$ROOT" && ./mvnw -q -pl sample-app -am package -DskipTests)
fi

rm -rf "$WORK/zookeeper"
ZK_PORT=$(free_port); A_PORT=$(free_port); B_PORT=$(free_port); P_PORT=$(free_port)
COMMON=(--management.endpoints.web.exposure.include=health,prometheus,zklockcluster
	--zklock.leader.min-participants.inventory=2 --zklock.lock.long-hold-warning=2s
	--logging.level.root=WARN)
log "starting two instances (ZooKeeper on $ZK_PORT, HTTP on $A_PORT and $B_PORT)"
java -jar "$JAR" --server.port="$A_PORT" --zklock.embedded.port="$ZK_PORT" --zklock.embedded.data-dir="$WORK/zookeeper" \
	"${COMMON[@]}" \
	>"$WORK/instance-a.log" 2>&1 &
PIDS+=($!)
await_http() {
	for _ in $(seq 1 120); do
		curl -sf "$1" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	fail "$1 does not answer; see $WORK/instance-*.log"
}
await_http "http://127.0.0.1:$A_PORT/actuator/health"
java -jar "$JAR" --server.port="$B_PORT" --zklock.embedded.enabled=false \
	--zklock.connect-string="127.0.0.1:$ZK_PORT" --management.endpoint.zklockcluster.access=unrestricted \
	"${COMMON[@]}" >"$WORK/instance-b.log" 2>&1 &
PIDS+=($!)
await_http "http://127.0.0.1:$B_PORT/actuator/health"

# 3. Prometheus, scraping both every second.
cat > "$WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: zklock-sample
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ['127.0.0.1:$A_PORT', '127.0.0.1:$B_PORT']
EOF
rm -rf "$WORK/tsdb"
"$PROMETHEUS" --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
	--web.listen-address="127.0.0.1:$P_PORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
await_http "http://127.0.0.1:$P_PORT/-/ready"

# 4. Load.
A="http://127.0.0.1:$A_PORT"; B="http://127.0.0.1:$B_PORT"
log "load for ${LOAD_SECONDS}s"
end=$((SECONDS + LOAD_SECONDS))
load() {
	while [ $SECONDS -lt $end ]; do
		curl -s -o /dev/null -X POST "$1/stock/sku-1/reserve?qty=1" || true
		curl -s -o /dev/null "$1/stock/sku-1" || true
	done
}
for _ in 1 2 3; do load "$A" & PIDS+=($!); load "$B" & PIDS+=($!); done
# A long hold on A; B's restock of the same key times out meanwhile (2 s).
curl -s -o /dev/null -X POST "$A/stock/sku-2/stocktake?seconds=6" & PIDS+=($!)
sleep 1
curl -s -o /dev/null -X POST "$B/stock/sku-2/restock?qty=1" || true
curl -s -o /dev/null -X POST "$B/stock/sku-2/restock-if-free?qty=1" || true
sleep 6
# A forced release: B releases A's node of sku-3 while A holds it; A loses the lock.
curl -s -o /dev/null -X POST "$A/stock/sku-3/stocktake?seconds=10" & PIDS+=($!)
sleep 2
owner=$(curl -sf "$B/actuator/zklockcluster/stock:sku-3" | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"][0]["owner"])') \
	|| fail "the cluster view shows no node of stock:sku-3"
curl -sf -o /dev/null -X DELETE "$B/actuator/zklockcluster/stock:sku-3?owner=$owner" || fail "the forced release failed"
while [ $SECONDS -lt $end ]; do sleep 1; done
sleep 5

# 5. Every panel's query.
log "evaluating every panel's query"
python3 - "$DASHBOARD" "http://127.0.0.1:$P_PORT" <<'EOF'
import json, sys, urllib.parse, urllib.request
dashboard, prometheus = sys.argv[1], sys.argv[2]
failed = 0
for panel in json.load(open(dashboard))["panels"]:
    for target in panel["targets"]:
        url = prometheus + "/api/v1/query?" + urllib.parse.urlencode({"query": target["expr"]})
        answer = json.load(urllib.request.urlopen(url, timeout=30))
        series = answer["data"]["result"] if answer.get("status") == "success" else []
        status = "ok" if series else "NO SERIES"
        failed += 0 if series else 1
        print(f"{status:9} {len(series):3} series  {panel['title']}: {target['expr']}")
sys.exit(1 if failed else 0)
EOF
log "every query returns series"
