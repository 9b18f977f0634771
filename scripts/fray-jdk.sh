#!/usr/bin/env bash
#
# Builds the JDK that Fray's controlled scheduler runs on: a copy of a JDK 25 whose classes Fray's
# jlink plugin has instrumented (what Fray's own Maven goal, prepare-fray, does from a JDK's jmods;
# most JDK 25 builds, Temurin's among them, ship no jmods and link from their run-time image instead,
# which that goal does not do). Run by the fray profile of autoconfigure/pom.xml, before its fray-races
# execution:
#   scripts/fray-jdk.sh <JDK 25 home> <fray folder>
# <fray folder>/lib holds Fray's instrumentation jars (copied there by the profile); the JDK goes to
# <fray folder>/java, once: a second run whose JDK and Fray version are the same reuses it.

set -euo pipefail

SOURCE=${1:?usage: scripts/fray-jdk.sh <JDK 25 home> <fray folder>}
FRAY=${2:?usage: scripts/fray-jdk.sh <JDK 25 home> <fray folder>}
TARGET=$FRAY/java

fail() { printf '[fray-jdk] %s\n' "$*" >&2; exit 1; }

[ -x "$SOURCE/bin/jlink" ] || fail "$SOURCE has no bin/jlink: Fray needs a JDK 25 (run Maven on one)"
version=$("$SOURCE/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
[ "$version" = 25 ] || fail "$SOURCE is a JDK $version; Fray instruments a JDK 25 only (run Maven on one)"

jars=$(find "$FRAY/lib" -name '*.jar' | sort | paste -sd:)
[ -n "$jars" ] || fail "no jar in $FRAY/lib: Fray's instrumentation jars are copied there by the fray profile"
stamp="$SOURCE $(basename -a "$FRAY"/lib/*.jar | paste -sd' ')"
if [ -x "$TARGET/bin/java" ] && [ "$(cat "$TARGET.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
rm -rf "$TARGET" "$TARGET.stamp"

agent=$(find "$FRAY/lib" -name 'fray-instrumentation-jdk-*.jar' | head -n1)
if [ -d "$SOURCE/jmods" ]; then
	# The JDK's packaged modules, all of them, as Fray's own goal links them.
	from=(--module-path="$SOURCE/jmods" --add-modules=ALL-MODULE-PATH)
else
	# Linked from the run-time image (JEP 493): every module but jlink's own, which such an image
	# cannot hold (jdk.jpackage requires it).
	modules=$("$SOURCE/bin/java" --list-modules | sed 's/@.*//' | grep -vxE 'jdk\.jlink|jdk\.jpackage' | paste -sd,)
	from=(--add-modules="$modules")
fi
printf '[fray-jdk] instrumenting %s into %s\n' "$SOURCE" "$TARGET" >&2
if ! "$SOURCE/bin/jlink" "-J-javaagent:$agent" "-J--module-path=$jars" \
	-J--add-modules=org.pastalab.fray.instrumentation.jdk "-J--class-path=$jars" \
	--output="$TARGET" "${from[@]}" --release-info add:IMPLEMENTOR=Fray --fray-instrumentation >&2; then
	rm -rf "$TARGET"
	fail "jlink could not build the instrumented JDK from $SOURCE (a JDK with neither jmods nor a linkable run-time image cannot)"
fi
printf '%s' "$stamp" > "$TARGET.stamp"
