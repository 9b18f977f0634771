#!/usr/bin/env bash
#
# Shows that each property explored by Fray's controlled scheduler (the *FrayTests of the fray profile)
# can fail: for every break below, checks the current commit out into a scratch worktree under target/,
# breaks the library on purpose there, runs the test classes that should catch it under Fray, and prints the
# first failures Fray reported (or NOT CAUGHT), and in which of a test's iterations each came. The worktree
# is removed at the end.
#
#   scripts/fray-breaks.sh [break ...]      (all breaks when none is named)
#
# Needs a JDK 25 (Fray instruments one): $ZKLOCK_JDK25_HOME, else what scripts/prepare-jdk.sh finds here.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK="$ROOT/target/fray-breaks"
found=$("$ROOT/scripts/prepare-jdk.sh" 25 2>/dev/null) || { echo "no JDK 25 on this machine" >&2; exit 1; }
[ "${found%% *}" = host ] || { echo "no JDK 25 on this machine (only in a container)" >&2; exit 1; }
export JAVA_HOME=${found#host }
cleanup() { git -C "$ROOT" worktree remove --force "$WORK" >/dev/null 2>&1 || true; }
trap cleanup EXIT
mkdir -p "$ROOT/target"
cleanup
git -C "$ROOT" worktree add --detach "$WORK" HEAD >/dev/null
# The instrumented JDK of an earlier fray run, if any, is reused rather than built again.
if [ -d "$ROOT/autoconfigure/target/fray/java" ]; then
	mkdir -p "$WORK/autoconfigure/target/fray"
	cp -a "$ROOT/autoconfigure/target/fray/java" "$ROOT/autoconfigure/target/fray/java.stamp" "$WORK/autoconfigure/target/fray/"
fi

python3 - "$WORK" "${@:-all}" <<'PY'
import glob, os, re, subprocess, sys
from xml.etree import ElementTree
work, names = sys.argv[1], sys.argv[2:]
main = os.path.join(work, 'autoconfigure/src/main/java/dev/zklock/')
# name: (test class, [(file under dev/zklock, old, new)])
breaks = {
  # Leader-only components (LeaderComponentsFrayTests).
  'one-thread-for-every-group': ('LeaderComponentsFrayTests', [('leader/LeaderComponents.java',
      'new ComponentThread(name, this.stopTimeout, this.executors.apply(name), this.nanoTime)',
      'this.shared.updateAndGet((thread) -> (thread != null) ? thread\n\t\t\t\t\t\t\t\t: new ComponentThread(name, this.stopTimeout, this.executors.apply(name), this.nanoTime))'),
      ('leader/LeaderComponents.java', 'private volatile boolean closed;',
       'private volatile boolean closed;\n\n\tprivate final java.util.concurrent.atomic.AtomicReference<ComponentThread> shared = new java.util.concurrent.atomic.AtomicReference<>();')]),
  'revocation-stops-started-groups-only': ('LeaderComponentsFrayTests', [('leader/LeaderComponents.java',
      'LeaderComponentGroup components = this.groups.get(group);\n\t\tif (components != null) {\n\t\t\tString why',
      'LeaderComponentGroup components = this.groups.get(group);\n\t\tif (components != null && components.isStarted()) {\n\t\t\tString why')]),
  'outside-start-let-through': ('LeaderComponentsFrayTests,LeaderComponentContextFrayTests', [('leader/LeaderComponentInterceptor.java',
      'if (start) {\n\t\t\tthis.components.requestStart(this.group);\n\t\t\treturn null;',
      'if (start) {\n\t\t\treturn invocation.proceed();')]),
  # Issue 33's first defect: the proxy made isAutoStartup() false and let every other call through.
  'lifecycle-calls-let-through': ('LeaderComponentContextFrayTests', [('leader/LeaderComponentInterceptor.java',
      'if ((!start && !stop) || this.components.startsAndStops(this.group)) {',
      'if (true) {')]),
  # The lock core (AsyncAcquisitionFrayTests): a call withdrawn while the event thread grants it.
  'withdrawn-grant-kept': ('AsyncAcquisitionFrayTests', [('lock/AsyncAcquisition.java',
      'if (this.result.isCancelled()) {\n\t\t\treleaseHeld();\n\t\t\treturn;\n\t\t}\n\t\tList<Hold> held;',
      'if (this.result.isCancelled()) {\n\t\t\treturn;\n\t\t}\n\t\tList<Hold> held;'),
      ('lock/AsyncAcquisition.java',
      'if (this.result.isCancelled()) {\n\t\t\tanswered.keyLock.release(hold);\n\t\t\treleaseHeld();\n\t\t\treturn;',
      'if (this.result.isCancelled()) {\n\t\t\treturn;'),
      ('lock/AsyncAcquisition.java',
      'if (!this.result.complete(acquisition) && acquisition != null) {\n\t\t\t\tAsyncRelease.release(acquisition.holds());',
      'if (!this.result.complete(acquisition) && acquisition != null) {')]),
  # The lock core (LostHoldReleaseFrayTests): a lost hold released while the key is granted again.
  'lost-hold-release-counted': ('LostHoldReleaseFrayTests', [('lock/KeyLock.java',
      'if (hold.lock() == this.node) {\n\t\t\t\tif (hold.mode() == LockMode.EXCLUSIVE) {',
      'if (true) {\n\t\t\t\tif (hold.mode() == LockMode.EXCLUSIVE) {')]),
  # The deadline of a thread's own request (RequestDeadlinesFrayTests): a wait that ends without the
  # handshake, so that the deadline's interrupt may land after it.
  'deadline-interrupt-outlives-wait': ('RequestDeadlinesFrayTests', [('zookeeper/RequestDeadlines.java',
      'if (wait.state.compareAndSet(WAITING, ENDED)) {\n\t\t\treturn false;\n\t\t}\n\t\twhile (wait.state.get() != INTERRUPTED) {\n\t\t\tThread.onSpinWait();\n\t\t}',
      'if (wait.state.get() != INTERRUPTED) {\n\t\t\treturn false;\n\t\t}')]),
  # The registry of key locks (KeyLocksFrayTests): two calls making a key's first lock at once, each
  # keeping its own.
  'key-lock-made-twice': ('KeyLocksFrayTests', [('lock/KeyLocks.java',
      'return (existing != null) ? existing : made;', 'return made;')]),
  # Elections (ElectionFrayTests): a stop and start again, and a yield, against the events.
  'stopped-election-strips-watches-late': ('ElectionFrayTests', [('leader/GroupElection.java',
      'this.port.removeConnectionListener(this.connectionListener);\n\t\tthis.check.removeWatches();',
      'this.port.removeConnectionListener(this.connectionListener);\n\t\tthis.port.schedule(this.check::removeWatches, 1_000_000_000L);')]),
  'yield-looks-no-more': ('ElectionFrayTests', [('leader/GroupElection.java',
      'if (yielded) {\n\t\t\tthis.check.request();', 'if (yielded) {\n\t\t\tthis.check.hashCode();')]),
}
selected = list(breaks) if names == ['all'] else names
print('%-40s %-30s %s' % ('break', 'tests', 'first failure'))
for name in selected:
    test, edits = breaks[name]
    subprocess.run(['git', '-C', work, 'checkout', '-q', '--', 'autoconfigure/src/main'], check=True)
    for file, old, new in edits:
        path = main + file
        text = open(path).read()
        if old not in text:
            sys.exit('break %s no longer applies to %s: update it' % (name, file))
        open(path, 'w').write(text.replace(old, new, 1))
    for report in glob.glob(os.path.join(work, 'autoconfigure/target/surefire-reports/*fray-races*')):
        os.remove(report)
    result = subprocess.run(['./mvnw', '-B', '-o', '-Pfray', '-pl', 'autoconfigure', 'process-test-classes',
        'surefire:test@fray-races', '-Dtest=' + test, '-Dsurefire.failIfNoSpecifiedTests=false'],
        cwd=work, capture_output=True, text=True)
    failures = []
    for report in sorted(glob.glob(os.path.join(work, 'autoconfigure/target/surefire-reports/TEST-*fray-races*.xml'))):
        for case in ElementTree.parse(report).getroot().iter('testcase'):
            for problem in list(case.iter('failure')) + list(case.iter('error')):
                what = problem.get('message') or problem.get('type', '').rsplit('.', 1)[-1]
                failures.append('%s: %s' % (re.sub(r'[(\[].*', '', case.get('name')), what[:120]))
    seen = []
    for failure in failures:
        if failure not in seen:
            seen.append(failure)
    # Fray names the iteration (from 0) in which each test's first failure came.
    found = ['%s at iteration %d' % (method, int(n) + 1)
        for method, n in re.findall(r'Bug found in iteration test (\w+)\(\) repetition (\d+) of', result.stdout)]
    print('%-40s %-30s %s%s' % (name, test, '; '.join(seen[:3]) if seen else 'NOT CAUGHT',
        (' [' + ', '.join(found) + ']') if found else ''), flush=True)
PY
