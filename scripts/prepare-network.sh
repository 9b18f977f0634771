#!/usr/bin/env bash
#
# Installs what the system tests need to partition the ZooKeeper ensemble from inside (each server
# in a Linux network namespace of its own, cut off from the others with iptables rules): Debian's
# iproute2 and iptables packages, when `ip` or `iptables` is missing. Needs root and a Debian or
# Ubuntu machine. Nothing is started or configured: the tests make their namespaces themselves and
# remove them. Without root, or without these tools, the tests run the servers on loopback and skip
# the partitions inside the ensemble, saying why.

set -euo pipefail

log() { printf '[prepare-network] %s\n' "$*"; }

missing=()
for tool in ip iptables; do
	command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || [ -x "/sbin/$tool" ] || missing+=("$tool")
done
if [ ${#missing[@]} -eq 0 ]; then
	log "ip and iptables are installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
	log "missing ${missing[*]}, and cannot install them here (needs root and apt-get): the partitions inside the ensemble will be skipped"
	exit 0
fi
log "installing iproute2 and iptables from the Debian packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iproute2 iptables >/dev/null
