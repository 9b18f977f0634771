#!/usr/bin/env bash
# Makes throw-away TLS material for running the sample with its 'secure' profile on one machine:
# a certificate authority, a certificate for the embedded ZooKeeper server and one for the
# application (its client certificate, which the server turns into the identity x509:CN=inventory).
#
#   scripts/dev-certificates.sh [folder]     default: sample-app/target/dev-tls
#
# Writes <folder>/trust.p12 (the authority), <folder>/zookeeper.p12 and <folder>/inventory.p12
# (key and certificate chain), all PKCS12 with the password 'dev-only' (or $DEV_TLS_PASSWORD).
# For development only: the keys are made on this machine, valid for 30 days, and never committed.
# Needs the JDK's keytool (on the PATH, or $KEYTOOL).
set -euo pipefail
cd "$(dirname "$0")/.."

folder="${1:-sample-app/target/dev-tls}"
keytool="${KEYTOOL:-keytool}"
password="${DEV_TLS_PASSWORD:-dev-only}"
mkdir -p "$folder"
chmod 700 "$folder"
work="$(mktemp -d "$folder/.work.XXXXXX")"
trap 'rm -rf "$work"' EXIT

key() {
	"$keytool" -genkeypair -alias "$1" -dname "CN=$1" -keyalg EC -groupname secp256r1 -validity 30 \
		-keystore "$work/$1.p12" -storetype PKCS12 -storepass "$password" "${@:2}"
}

key ca -ext bc:c
"$keytool" -exportcert -rfc -alias ca -keystore "$work/ca.p12" -storepass "$password" -file "$work/ca.crt"
rm -f "$folder/trust.p12"
"$keytool" -importcert -noprompt -alias ca -file "$work/ca.crt" -keystore "$folder/trust.p12" -storetype PKCS12 \
	-storepass "$password"

for name in zookeeper inventory; do
	key "$name"
	"$keytool" -certreq -alias "$name" -keystore "$work/$name.p12" -storepass "$password" -file "$work/$name.csr"
	"$keytool" -gencert -rfc -alias ca -keystore "$work/ca.p12" -storepass "$password" -validity 30 \
		-ext SAN=dns:localhost,ip:127.0.0.1 -ext EKU=serverAuth,clientAuth -ext KU=digitalSignature \
		-infile "$work/$name.csr" -outfile "$work/$name.crt"
	cat "$work/ca.crt" "$work/$name.crt" > "$work/$name-chain.crt"
	"$keytool" -importcert -noprompt -alias "$name" -file "$work/$name-chain.crt" -keystore "$work/$name.p12" \
		-storepass "$password"
	mv -f "$work/$name.p12" "$folder/$name.p12"
done
chmod 600 "$folder"/*.p12
echo "TLS material for the sample's 'secure' profile in $folder"
