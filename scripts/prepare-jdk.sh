#!/usr/bin/env bash
#
# Finds, or provides, a JDK of one feature version (21 or 25) for .ci/run's runs on other Javas than
# the build's own 17. Prints one line on stdout, for .ci/run to read:
#   host <JAVA_HOME>                  a JDK of that version installed on this machine: $ZKLOCK_JDK<version>_HOME
#                                     if set, else the first /usr/lib/jvm/*<version>* folder whose java says it
#                                     is <version> (Debian's usual JVM folder, where Temurin's package goes too);
#   image <IMAGE> <JAVA_HOME>         none here: a local Docker image, zklock-jdk:trixie, whose Debian 13 (trixie)
#                                     root file system has Debian's openjdk-21-jdk-headless and
#                                     openjdk-25-jdk-headless at <JAVA_HOME>. Debian 12 has no JDK 21 or 25, and
#                                     trixie's need a newer glibc than Debian 12's, so they run in a container,
#                                     not on this machine. The image is built like the ZooKeeper image of
#                                     scripts/prepare-docker.sh (debootstrap, docker import, nothing pulled),
#                                     once: a second run reuses it. It needs root and a Docker engine
#                                     (run scripts/prepare-docker.sh first).
# Exits 1, saying why on stderr, when neither can be had.
#
# Variables: ZKLOCK_JDK21_HOME, ZKLOCK_JDK25_HOME (a JDK to use), DEBIAN_MIRROR
# (http://deb.debian.org/debian), ZKLOCK_REBUILD_IMAGE=1 to build the image again.

set -euo pipefail

VERSION=${1:?usage: scripts/prepare-jdk.sh 21|25}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
IMAGE=zklock-jdk:trixie

log() { printf '[prepare-jdk] %s\n' "$*" >&2; }
fail() { printf '[prepare-jdk] %s\n' "$*" >&2; exit 1; }

# The feature version that a java binary reports, e.g. 25 for "25.0.1".
feature_version() {
	"$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p'
}

# 1. A JDK on this machine.
named="ZKLOCK_JDK${VERSION}_HOME"
for home in ${!named:-} /usr/lib/jvm/*"$VERSION"*; do
	[ -n "$home" ] && [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
	if [ "$(feature_version "$home/bin/java")" = "$VERSION" ]; then
		log "JDK $VERSION on this machine: $home"
		echo "host $home"
		exit 0
	fi
done

# 2. Debian 13's JDK in a container.
case "$VERSION" in
	21 | 25) ;;
	*) fail "no JDK $VERSION on this machine, and the image has only 21 and 25" ;;
esac
IMAGE_JAVA_HOME=/usr/lib/jvm/java-$VERSION-openjdk-amd64
docker info >/dev/null 2>&1 || fail "no JDK $VERSION on this machine, and no Docker engine answers to run Debian 13's (scripts/prepare-docker.sh starts one)"

if [ "${ZKLOCK_REBUILD_IMAGE:-0}" != 1 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
	log "no JDK $VERSION on this machine; image $IMAGE is already built"
	echo "image $IMAGE $IMAGE_JAVA_HOME"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || fail "no JDK $VERSION on this machine, and building $IMAGE (debootstrap) needs root"
command -v debootstrap >/dev/null || fail "no JDK $VERSION on this machine, and no debootstrap to build $IMAGE (scripts/prepare-docker.sh installs it)"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/zklock-jdk.XXXXXX")
cleanup() {
	awk -v work="$WORK" 'index($2, work) == 1 { print $2 }' /proc/mounts | sort -r | while read -r mount; do
		umount -l "$mount" 2>/dev/null || true
	done
	rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

ROOTFS="$WORK/rootfs"
# iproute2 and iptables: the system tests partition the ensemble in network namespaces when they can.
log "no JDK $VERSION on this machine: building $IMAGE, a Debian trixie root file system with openjdk-21-jdk-headless and openjdk-25-jdk-headless (debootstrap: minutes)"
debootstrap --variant=minbase \
	--include=openjdk-21-jdk-headless,openjdk-25-jdk-headless,ca-certificates,iproute2,iptables,procps \
	trixie "$ROOTFS" "$DEBIAN_MIRROR" >"$WORK/debootstrap.log" 2>&1 \
	|| { tail -n 30 "$WORK/debootstrap.log" >&2; fail "debootstrap failed"; }
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc \
	"$ROOTFS"/usr/share/man "$ROOTFS"/usr/share/locale
for version in 21 25; do
	[ -x "$ROOTFS/usr/lib/jvm/java-$version-openjdk-amd64/bin/javac" ] || fail "the root file system has no JDK $version"
done
tar -C "$ROOTFS" -c . | docker import -c 'WORKDIR /' -c 'LABEL dev.zklock.jdks="21 25"' - "$IMAGE" >/dev/null
log "built $IMAGE ($(docker image inspect -f '{{.Size}}' "$IMAGE") bytes)"
echo "image $IMAGE $IMAGE_JAVA_HOME"
