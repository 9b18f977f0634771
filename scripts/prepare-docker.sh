#!/usr/bin/env bash
#
# Prepares a Docker engine for zklock's container tests, without pulling any image:
#  1. installs Debian's docker.io package if dockerd is missing (and debootstrap when an image
#     must be built): needs root and a Debian or Ubuntu machine;
#  2. installs Docker Compose v2 as Docker's CLI plugin when `docker compose version` fails:
#     Debian 12 has no Compose v2, so the script takes Debian 13 (trixie)'s `docker-compose`
#     package, a static Go binary that needs only libc6 >= 2.34. apt-get downloads it (signature
#     and checksum checked against Debian's archive keyring) through a trixie source list of its
#     own, kept apart from the system's: the system's sources, package lists and installed packages
#     are left as they are. The binary goes to /usr/local/lib/docker/cli-plugins/docker-compose;
#  3. starts dockerd if no engine answers; when it starts one, it writes the engine's process id to
#     $DOCKERD_PID_FILE (if set), so that the caller can stop it (.ci/run does);
#  4. builds a local ZooKeeper image, tagged zookeeper:<version>-zklock-local, from a minimal
#     Debian root file system (debootstrap --variant=minbase with a JRE) and the ZooKeeper jars
#     that Maven resolves for the build, then imports it with `docker import`. <version> is the
#     ZooKeeper version the starter brings. An image already built is reused: a second run costs
#     seconds.
#
# The container tests use that image in place of the official `zookeeper` image, and skip (with a
# message naming this script) when it is absent or when no Docker engine answers.
#
# Variables: DOCKERD_PID_FILE (see 3), DEBIAN_MIRROR (http://deb.debian.org/debian),
# DEBIAN_SUITE (bookworm, the image's), COMPOSE_SUITE (trixie, Compose's), ZKLOCK_REBUILD_IMAGE=1 to
# build the image again.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SUITE=${DEBIAN_SUITE:-bookworm}
COMPOSE_SUITE=${COMPOSE_SUITE:-trixie}
COMPOSE_PLUGIN=/usr/local/lib/docker/cli-plugins/docker-compose
WORK=$(mktemp -d "${TMPDIR:-/tmp}/zklock-image.XXXXXX")
cleanup() {
	# debootstrap mounts /proc (and more) inside the root file system: unmount before removing.
	awk -v work="$WORK" 'index($2, work) == 1 { print $2 }' /proc/mounts | sort -r | while read -r mount; do
		umount -l "$mount" 2>/dev/null || true
	done
	rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

log() { printf '[prepare-docker] %s\n' "$*"; }
fail() { printf '[prepare-docker] ERROR: %s\n' "$*" >&2; exit 1; }

apt_updated=0
install_packages() {
	[ "$(id -u)" -eq 0 ] || fail "installing $* needs root (Debian packages); run this script as root, or install them yourself"
	command -v apt-get >/dev/null || fail "no apt-get: install $* with your system's package manager"
	if ((!apt_updated)); then
		apt-get update -qq
		apt_updated=1
	fi
	log "installing $* from the Debian packages"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

engine_answers() { docker info >/dev/null 2>&1; }

# Downloads Debian $COMPOSE_SUITE's docker-compose package with apt-get, through a source list, package
# lists and cache of its own under $WORK (the system's apt configuration is neither read nor changed),
# and copies its binary to $COMPOSE_PLUGIN.
install_compose_plugin() {
	[ "$(id -u)" -eq 0 ] || fail "installing Docker Compose v2 needs root; run this script as root, or install it yourself"
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
		|| fail "no apt-get: install Docker Compose v2 (the 'docker compose' plugin) with your system's package manager"
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || fail "no $keyring (package debian-archive-keyring) to check Debian $COMPOSE_SUITE's signature"
	local apt="$WORK/apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/download"
	chmod 755 "$WORK"
	# apt fetches as the unprivileged _apt user where it can.
	if id _apt >/dev/null 2>&1; then chown -R _apt "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/download"; fi
	cat > "$apt/compose.sources" <<EOF
Types: deb
URIs: $DEBIAN_MIRROR
Suites: $COMPOSE_SUITE
Components: main
Signed-By: $keyring
EOF
	local options=(-o "Dir::Etc::sourcelist=$apt/compose.sources" -o Dir::Etc::sourceparts=- \
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::Etc::preferencesparts=-)
	log "installing Docker Compose v2 from Debian $COMPOSE_SUITE's docker-compose package"
	apt-get "${options[@]}" update -qq >"$apt/apt.log" 2>&1 \
		|| { cat "$apt/apt.log" >&2; fail "apt-get could not read Debian $COMPOSE_SUITE's package lists"; }
	(cd "$apt/download" && apt-get "${options[@]}" download docker-compose >>"$apt/apt.log" 2>&1) \
		|| { cat "$apt/apt.log" >&2; fail "apt-get could not download Debian $COMPOSE_SUITE's docker-compose package"; }
	dpkg-deb -x "$apt/download"/docker-compose_*.deb "$apt/root"
	local binary="$apt/root/usr/libexec/docker/cli-plugins/docker-compose"
	[ -x "$binary" ] || fail "Debian $COMPOSE_SUITE's docker-compose package has no $binary"
	install -D -m 755 "$binary" "$COMPOSE_PLUGIN"
	docker compose version >/dev/null 2>&1 || fail "'docker compose version' fails even with $COMPOSE_PLUGIN installed"
	log "installed $(docker compose version) as $COMPOSE_PLUGIN"
}

# 1. Engine and client.
command -v dockerd >/dev/null && command -v docker >/dev/null || install_packages docker.io

# 2. Docker Compose v2, which Spring Boot's Docker Compose support needs.
if docker compose version >/dev/null 2>&1; then
	log "Docker Compose v2 is installed: $(docker compose version)"
else
	install_compose_plugin
fi

# 3. A running engine.
if engine_answers; then
	log "a Docker engine is already running"
else
	mkdir -p /var/log
	# A dockerd stopped while a network was being made or removed (a run interrupted mid-test)
	# can leave a network without its address pool in its store, and dockerd 20.10 then panics
	# at every start (libnetwork reservePools). The store holds only networks (the defaults are
	# made again; the tests make theirs each run): set it aside once and start again.
	for attempt in 1 2; do
		log "starting dockerd"
		setsid dockerd >/var/log/zklock-dockerd.log 2>&1 < /dev/null &
		DOCKERD_PID=$!
		if [ -n "${DOCKERD_PID_FILE:-}" ]; then echo "$DOCKERD_PID" > "$DOCKERD_PID_FILE"; fi
		for _ in $(seq 1 60); do
			engine_answers && break
			kill -0 "$DOCKERD_PID" 2>/dev/null || break
			sleep 0.5
		done
		engine_answers && break
		NETWORK_STORE=/var/lib/docker/network/files/local-kv.db
		if [ "$attempt" = 1 ] && ! kill -0 "$DOCKERD_PID" 2>/dev/null \
			&& grep -q 'reservePools' /var/log/zklock-dockerd.log && [ -f "$NETWORK_STORE" ]; then
			log "dockerd panicked on a network left half made; setting its network store aside ($NETWORK_STORE.broken)"
			mv -f "$NETWORK_STORE" "$NETWORK_STORE.broken"
			continue
		fi
		kill -0 "$DOCKERD_PID" 2>/dev/null || fail "dockerd ended at start; see /var/log/zklock-dockerd.log"
		fail "dockerd did not answer within 30s; see /var/log/zklock-dockerd.log"
	done
	log "dockerd is running (pid $DOCKERD_PID)"
fi

# 4. The ZooKeeper image. Maven lists the jars of the ZooKeeper server the build uses.
log "resolving the ZooKeeper jars with Maven"
(cd "$ROOT" && ./mvnw -B -q -pl test-support dependency:build-classpath \
	-Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/classpath.txt" >"$WORK/maven.log" 2>&1) \
	|| { cat "$WORK/maven.log" >&2; fail "Maven could not resolve the ZooKeeper jars"; }
ZK_JAR=$(tr ':' '\n' < "$WORK/classpath.txt" | grep -E '/zookeeper-[0-9][^/]*\.jar$' | head -n1)
[ -n "$ZK_JAR" ] || fail "no zookeeper jar in the build's class path"
ZK_VERSION=$(basename "$ZK_JAR" .jar)
ZK_VERSION=${ZK_VERSION#zookeeper-}
IMAGE="zookeeper:${ZK_VERSION}-zklock-local"

if [ "${ZKLOCK_REBUILD_IMAGE:-0}" != 1 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
	log "image $IMAGE is already built; reusing it"
	exit 0
fi

command -v debootstrap >/dev/null || install_packages debootstrap
[ "$(id -u)" -eq 0 ] || fail "debootstrap needs root"

ROOTFS="$WORK/rootfs"
log "building a minimal $DEBIAN_SUITE root file system with a JRE (debootstrap: minutes the first time)"
debootstrap --variant=minbase --include=openjdk-17-jre-headless "$DEBIAN_SUITE" "$ROOTFS" "$DEBIAN_MIRROR" \
	>"$WORK/debootstrap.log" 2>&1 || { tail -n 30 "$WORK/debootstrap.log" >&2; fail "debootstrap failed"; }
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc \
	"$ROOTFS"/usr/share/man "$ROOTFS"/usr/share/locale

mkdir -p "$ROOTFS/zookeeper/lib" "$ROOTFS/zookeeper/conf" "$ROOTFS/data"
tr ':' '\n' < "$WORK/classpath.txt" | grep -E '\.jar$' | while read -r jar; do cp "$jar" "$ROOTFS/zookeeper/lib/"; done
cat > "$ROOTFS/zookeeper/conf/zoo.cfg" <<'EOF'
# Standalone server, as the official image runs it by default.
tickTime=2000
initLimit=5
syncLimit=2
dataDir=/data
clientPort=2181
maxClientCnxns=0
4lw.commands.whitelist=srvr,ruok
admin.enableServer=false
EOF
cat > "$ROOTFS/zookeeper/conf/logback.xml" <<'EOF'
<configuration>
  <appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{ISO8601} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="CONSOLE"/></root>
</configuration>
EOF

log "importing $IMAGE"
tar -C "$ROOTFS" -c . | docker import \
	-c 'EXPOSE 2181' \
	-c 'WORKDIR /zookeeper' \
	-c "LABEL dev.zklock.zookeeper-version=$ZK_VERSION" \
	-c 'CMD ["java", "-Xmx256m", "-Dlogback.configurationFile=/zookeeper/conf/logback.xml", "-cp", "/zookeeper/lib/*", "org.apache.zookeeper.server.ZooKeeperServerMain", "/zookeeper/conf/zoo.cfg"]' \
	- "$IMAGE" >/dev/null
log "built $IMAGE ($(docker image inspect -f '{{.Size}}' "$IMAGE") bytes)"
