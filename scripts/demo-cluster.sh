#!/usr/bin/env bash
#
# zklock demo: one standalone ZooKeeper server, one shared H2 database server and three
# instances of the sample inventory service, all on 127.0.0.1. It fires concurrent reservations
# at all three instances, shows that the final stock is exact, shows onTimeout = THROW and SKIP
# side by side, then kills the instance that runs the leader-only report and shows another one
# taking it over.
#
# Everything it starts is stopped when it ends, fails or is interrupted. Every wait is bounded.
# Needs a JDK 17 and curl; builds the sample jar with the Maven wrapper if it is missing.
#
# Ports can be changed: ZK_PORT (22181), DB_PORT (29092), APP_PORTS ("18081 18082 18083").

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR="$ROOT/sample-app/target/zklock-sample-app-0.1.0-SNAPSHOT.jar"
ZK_PORT=${ZK_PORT:-22181}
DB_PORT=${DB_PORT:-29092}
read -r -a APP_PORTS <<< "${APP_PORTS:-18081 18082 18083}"
JAVA_OPTS=${JAVA_OPTS:--Xmx256m -XX:TieredStopAtLevel=1}
STOCK=60
CALLS_PER_INSTANCE=30
SESSION_TIMEOUT_SECONDS=10

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zklock-demo.XXXXXX")
declare -a PIDS=()
declare -A APP_PID=()

# Stop processes: SIGTERM, up to 15s to end, then SIGKILL.
stop() {
	(($#)) || return 0
	kill -TERM "$@" 2>/dev/null || true
	for _ in $(seq 1 30); do
		local alive=0
		for pid in "$@"; do
			if kill -0 "$pid" 2>/dev/null; then alive=1; fi
		done
		((alive)) || break
		sleep 0.5
	done
	kill -KILL "$@" 2>/dev/null || true
	for pid in "$@"; do
		wait "$pid" 2>/dev/null || true
	done
}

cleanup() {
	local status=$?
	trap - EXIT INT TERM
	if ((${#PIDS[@]})); then
		echo
		echo "== Stopping everything the demo started: the instances, then the servers (pids ${PIDS[*]})"
		stop "${APP_PID[@]}"
		stop "${PIDS[@]}"
	fi
	if ((status == 0 || status == 130)); then
		rm -rf "$WORK"
	else
		echo "Logs of this run: $WORK (kept because the demo failed)"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'echo; echo "Interrupted"; exit 130' INT TERM

say() {
	echo
	echo "== $*"
}

fail() {
	echo "FAILED: $*" >&2
	exit 1
}

port_open() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

await_port() {
	local port=$1 name=$2 log=$3
	for _ in $(seq 1 120); do
		port_open "$port" && return 0
		sleep 0.5
	done
	tail -20 "$log" >&2
	fail "$name did not listen on 127.0.0.1:$port within 60s"
}

# Start a Java process in the background, remember its pid, send its output to a log file.
# ZooKeeper and H2 run from the sample jar too: its classpath holds both (PropertiesLauncher
# with -Dloader.main runs another main class from a Spring Boot jar).
start_java() {
	local log=$1
	shift
	# shellcheck disable=SC2086
	java $JAVA_OPTS "$@" > "$log" 2>&1 &
	PIDS+=($!)
	LAST_PID=$!
}

http() {
	curl -s --max-time 30 "$@"
}

field() {
	grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2- | tr -d '"'
}

for port in "$ZK_PORT" "$DB_PORT" "${APP_PORTS[@]}"; do
	if port_open "$port"; then
		fail "port $port on 127.0.0.1 is in use; choose others with ZK_PORT, DB_PORT or APP_PORTS"
	fi
done

if [[ ! -f "$JAR" ]]; then
	say "Building the sample app"
	(cd "$ROOT" && ./mvnw -q -pl sample-app -am package -DskipTests)
fi

say "Starting a standalone ZooKeeper server on 127.0.0.1:$ZK_PORT"
mkdir -p "$WORK/zookeeper"
cat > "$WORK/zoo.cfg" <<EOF
tickTime=500
dataDir=$WORK/zookeeper
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
EOF
start_java "$WORK/zookeeper.log" -Dzookeeper.admin.enableServer=false \
	-Dloader.main=org.apache.zookeeper.server.ZooKeeperServerMain \
	-cp "$JAR" org.springframework.boot.loader.launch.PropertiesLauncher "$WORK/zoo.cfg"
await_port "$ZK_PORT" "ZooKeeper" "$WORK/zookeeper.log"

say "Starting the shared H2 database server on 127.0.0.1:$DB_PORT"
start_java "$WORK/h2.log" -Dh2.bindAddress=127.0.0.1 -Dloader.main=org.h2.tools.Server \
	-cp "$JAR" org.springframework.boot.loader.launch.PropertiesLauncher -tcp -tcpPort "$DB_PORT" -ifNotExists
await_port "$DB_PORT" "H2" "$WORK/h2.log"
DB_URL="jdbc:h2:tcp://127.0.0.1:$DB_PORT/mem:inventory;DB_CLOSE_DELAY=-1"

say "Starting three instances of the inventory service on ports ${APP_PORTS[*]}"
for port in "${APP_PORTS[@]}"; do
	start_java "$WORK/instance-$port.log" -jar "$JAR" --server.port="$port" \
		--spring.profiles.active=ensemble --zklock.connect-string="127.0.0.1:$ZK_PORT" \
		--zklock.session-timeout="${SESSION_TIMEOUT_SECONDS}s" \
		--spring.datasource.url="$DB_URL" --spring.datasource.username=sa \
		--inventory.initial-stock.sku-1="$STOCK" --inventory.report-interval=2s
	APP_PID[$port]=$LAST_PID
done
for port in "${APP_PORTS[@]}"; do
	for attempt in $(seq 1 180); do
		[[ $(http -o /dev/null -w '%{http_code}' "127.0.0.1:$port/actuator/health" || true) == 200 ]] && break
		kill -0 "${APP_PID[$port]}" 2>/dev/null || { tail -30 "$WORK/instance-$port.log" >&2; fail "instance $port exited"; }
		((attempt < 180)) || fail "instance $port was not healthy within 90s"
		sleep 0.5
	done
	echo "instance $port (pid ${APP_PID[$port]}) is up: $(http "127.0.0.1:$port/leadership" | field participantId)"
done

say "Stock of sku-1 before: $(http "127.0.0.1:${APP_PORTS[0]}/stock/sku-1")"
total=$((CALLS_PER_INSTANCE * ${#APP_PORTS[@]}))
say "Firing $total concurrent reservations of 1 unit of sku-1, $CALLS_PER_INSTANCE at each instance, 12 at a time"
for _ in $(seq 1 "$CALLS_PER_INSTANCE"); do
	for port in "${APP_PORTS[@]}"; do
		echo "http://127.0.0.1:$port/stock/sku-1/reserve?qty=1"
	done
done | xargs -P 12 -n 1 curl -s --max-time 60 -X POST -o /dev/null -w '%{http_code} %{url_effective}\n' \
	> "$WORK/reservations.txt" || true
reserved=$(grep -c '^200 ' "$WORK/reservations.txt" || true)
refused=$(grep -c '^409 ' "$WORK/reservations.txt" || true)
# 503 "lock-lost": the lock was in doubt when the call returned (a connection blip on a busy
# machine); the fenced write may or may not have been made, so the outcome is unknown.
unknown=$(grep -c '^503 ' "$WORK/reservations.txt" || true)
for port in "${APP_PORTS[@]}"; do
	echo "instance $port: $(grep -c "^200 .*:$port/" "$WORK/reservations.txt" || true) reserved," \
		"$(grep -c "^409 .*:$port/" "$WORK/reservations.txt" || true) refused (insufficient stock)"
done
left=$(http "127.0.0.1:${APP_PORTS[1]}/stock/sku-1" | field available)
echo "Stock of sku-1 after: $(http "127.0.0.1:${APP_PORTS[2]}/stock/sku-1")"
echo "$STOCK in stock, $reserved reserved, $refused refused, $unknown with an unknown outcome, $left left"
if ((reserved + refused + unknown != total)); then
	fail "$((total - reserved - refused - unknown)) calls failed otherwise: $(grep -v -E '^(200|409|503) ' "$WORK/reservations.txt" | head -3)"
fi
if ((left < 0 || STOCK - left < reserved || STOCK - left > reserved + unknown)); then
	fail "the stock is not exact: $STOCK in stock, $reserved reserved ($unknown unknown), but $left left"
fi
if ((unknown == 0)); then
	echo "OK: the stock is exact ($STOCK - $reserved = $left), nothing was sold twice"
else
	echo "OK: $((STOCK - left)) sold: the $reserved confirmed and $((STOCK - left - reserved)) of the $unknown unknown; nothing was sold twice"
fi

say "onTimeout side by side: a 4s stocktake of sku-2 holds its lock on instance ${APP_PORTS[0]}; restocks wait 2s for it"
http -X POST "127.0.0.1:${APP_PORTS[0]}/stock/sku-2/stocktake?seconds=4" > "$WORK/stocktake.json" &
stocktake=$!
sleep 1
http -X POST -w ' (HTTP %{http_code})' "127.0.0.1:${APP_PORTS[1]}/stock/sku-2/restock?qty=5" > "$WORK/throw.json" &
throw=$!
http -X POST -w ' (HTTP %{http_code})' "127.0.0.1:${APP_PORTS[2]}/stock/sku-2/restock-if-free?qty=5" > "$WORK/skip.json" &
skip=$!
wait "$throw" "$skip" "$stocktake" || true
echo "THROW, instance ${APP_PORTS[1]}: $(cat "$WORK/throw.json")"
echo "SKIP,  instance ${APP_PORTS[2]}: $(cat "$WORK/skip.json")"
echo "stocktake, instance ${APP_PORTS[0]}: $(cat "$WORK/stocktake.json")"

say "Leadership of the low-stock report (group 'inventory')"
leader=""
for port in "${APP_PORTS[@]}"; do
	view=$(http "127.0.0.1:$port/leadership")
	if [[ $view == *'"leader":true'* ]]; then leader=$port; fi
done
[[ -n $leader ]] || fail "no instance leads"
echo "GET /leadership on $leader: $(http "127.0.0.1:$leader/leadership")"
echo "Its log: $(grep 'Low-stock report by' "$WORK/instance-$leader.log" | tail -1 | sed 's/.*LowStockReport *: //')"
for port in "${APP_PORTS[@]}"; do
	[[ $port == "$leader" ]] && continue
	echo "instance $port made the report $(grep -c 'Low-stock report by' "$WORK/instance-$port.log" || true) times"
done

say "Killing the leader, instance $leader (kill -9 ${APP_PID[$leader]}): its session expires after ${SESSION_TIMEOUT_SECONDS}s"
kill -KILL "${APP_PID[$leader]}"
killed_at=$(date +%s%N)
wait "${APP_PID[$leader]}" 2>/dev/null || true
successor=""
for _ in $(seq 1 120); do
	for port in "${APP_PORTS[@]}"; do
		[[ $port == "$leader" ]] && continue
		if [[ $(http "127.0.0.1:$port/leadership" || true) == *'"leader":true'* ]]; then successor=$port; fi
	done
	[[ -n $successor ]] && break
	sleep 0.25
done
[[ -n $successor ]] || fail "no instance took over within 30s"
echo "instance $successor took over after $((($(date +%s%N) - killed_at) / 1000000))ms"
for _ in $(seq 1 40); do
	grep -q 'Low-stock report by' <(sed -n '/takes over the low-stock report/,$p' "$WORK/instance-$successor.log") && break
	sleep 0.25
done
grep -E 'takes over the low-stock report|Low-stock report by' "$WORK/instance-$successor.log" \
	| sed -n '/takes over/,$p' | head -2 | sed 's/.*LowStockReport *: /  /'
echo "GET /leadership on $successor: $(http "127.0.0.1:$successor/leadership")"

say "Done"
