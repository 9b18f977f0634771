#!/usr/bin/env bash
#
# Shows that each check of the elections' deterministic simulator can fail: for every break below,
# checks the current commit out into a scratch worktree under target/, breaks the election on
# purpose there, runs the election simulator's seeds in order (one thread) until the first
# violations, and prints which promise was reported broken and at which seed. The worktree is
# removed at the end. The guards of ElectionState.grant are explored against the connection
# listener's thread by ElectionStateRaceTests instead (docs/elections.md).
#
#   scripts/election-breaks.sh [break ...]      (all breaks when none is named)
#
# Variables: SEEDS (2000), the most seeds a break may take.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK="$ROOT/target/election-breaks"
cleanup() { git -C "$ROOT" worktree remove --force "$WORK" >/dev/null 2>&1 || true; }
trap cleanup EXIT
mkdir -p "$ROOT/target"
cleanup
git -C "$ROOT" worktree add --detach "$WORK" HEAD >/dev/null

python3 - "$WORK" "${@:-all}" <<'PY'
import os, re, subprocess, sys
work, names = sys.argv[1], sys.argv[2:]
leader = os.path.join(work, 'autoconfigure/src/main/java/dev/zklock/leader/')
# name: (promises it should break, [(file, old, new)])
breaks = {
  # Revocation and confirmation.
  'suspended-keeps-leading': ('one leader, honesty', [('ElectionState.java',
      'this.connected = false;\n\t\trevoke("its connection to ZooKeeper was suspended");',
      'this.connected = false;')]),
  'no-confirmation-after-pause': ('one leader, honesty', [('LeadershipConfirmation.java',
      'return this.state.isLeader() && !this.pauses.mayHavePausedSince(this.confirmedAt);',
      'return this.state.isLeader();'),
      ('LeadershipConfirmation.java', 'if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {\n\t\t\treturn CompletableFuture.completedFuture(true);',
       'if (true) {\n\t\t\treturn CompletableFuture.completedFuture(true);')]),
  # Creates of unknown outcome (a retried create applied twice, a reply lost).
  'creates-forgotten': ('liveness, nothing left behind', [('ElectionNodeSet.java',
      'this.creates.put(id, ++this.clock);', 'this.creates.remove(id);\n\t\t++this.clock;')]),
  'creates-resolved-by-an-earlier-read': ('liveness, nothing left behind', [('ElectionNodeSet.java',
      'if (answeredAt >= 0 && answeredAt < readAt) {', 'if (true) {')]),
  # Leaving an election.
  'stop-keeps-its-node': ('nothing left behind', [('GroupElection.java',
      'for (String path : release.nodes()) {', 'for (String path : java.util.List.<String>of()) {')]),
  'stop-keeps-its-watches': ('nothing left behind', [('GroupElection.java',
      'this.port.removeConnectionListener(this.connectionListener);\n\t\tthis.check.removeWatches();',
      'this.port.removeConnectionListener(this.connectionListener);')]),
  # Leader-only components.
  'revoked-keeps-components': ('components follow leadership, exclusive components', [('LeaderComponents.java',
      'components.thread().submit(() -> components.stop(why));', 'components.thread();')]),
  'revocation-acted-on-late': ('components follow leadership, exclusive components', [('LeaderComponents.java',
      'components.thread().submit(() -> components.stop(why));',
      'components.thread().schedule(() -> components.stop(why), 1000);')]),
  'yield-does-not-wait': ('stop before yield, exclusive components', [('LeaderComponents.java',
      'components.thread().runAndWait(() -> components.stop("this instance yields the leadership"));',
      'components.thread().submit(() -> components.stop("this instance yields the leadership"));')]),
  'context-stop-does-not-wait': ('stop before yield', [('LeaderComponents.java',
      'components.thread().runAndWait(() -> components.stop("the application stopped them"));',
      'components.thread().submit(() -> components.stop("the application stopped them"));')]),
  'close-does-not-wait': ('stop before yield, nothing left behind', [('LeaderComponents.java',
      'stopping.forEach((components, done) -> components.thread().await(done, deadline));', '')]),
  'start-without-term': ('components follow leadership', [('LeaderComponents.java',
      'if (term.isEmpty()) {\n\t\t\treturn;\n\t\t}', ''),
      ('LeaderComponents.java', 'components.start(term.get().epoch())', 'components.start(term.map(LeaderTerm::epoch).orElse(-1L))')]),
  'grant-starts-nothing': ('liveness', [('LeaderComponents.java',
      'public void granted(String group, long epoch) {\n\t\trequestStart(group);',
      'public void granted(String group, long epoch) {')]),
  # Components whose start or stop fails.
  'failed-start-keeps-leading': ('liveness', [('LeaderComponents.java',
      'Throwable failure = components.start(term.get().epoch());\n\t\tif (failure != null) {',
      'Throwable failure = components.start(term.get().epoch());\n\t\tif (false) {')]),
  'failed-start-leaves-components': ('stop before yield', [('LeaderComponentGroup.java',
      'stop("component \'" + component.beanName() + "\' failed to start");', '')]),
  'start-catches-exceptions-only': ('liveness', [('LeaderComponentGroup.java',
      'component.bean().start();\n\t\t\t}\n\t\t\tcatch (Throwable thrown) {',
      'component.bean().start();\n\t\t\t}\n\t\t\tcatch (RuntimeException thrown) {')]),
  # Blocking leader-only calls (@ZkLeader through a Spring proxy).
  'revocation-interrupts-nothing': ('interrupted on revoke', [('LeaderCalls.java',
      'running(group, epoch).forEach(RunningCall::interrupt);', '')]),
  'call-end-ignores-its-term': ('lost reported', [('LeaderCalls.java',
      'if (!term.isValid()) {\n\t\t\tthrow new LeadershipLostException(term.group(), term.epoch(), "while the call ran");',
      'if (false) {\n\t\t\tthrow new LeadershipLostException(term.group(), term.epoch(), "while the call ran");')]),
  'unanswered-confirmation-trusted': ('honesty', [('LeadershipConfirmation.java',
      'this.state.doubted();\n\t\tthis.lookAgain.run();\n\t\treturn false;', 'return this.state.isLeader();')]),
  'stop-gives-up-at-a-failure': ('liveness, stop before yield', [('LeaderComponentGroup.java',
      'component.bean().stop();\n\t\t\t}\n\t\t\tcatch (Throwable ex) {',
      'component.bean().stop();\n\t\t\t}\n\t\t\tcatch (Error ex) {')]),
}
selected = list(breaks) if names == ['all'] else names
print('%-38s %-30s %s' % ('break', 'expected', 'first violations (seed: promise)'))
for name in selected:
    expected, edits = breaks[name]
    subprocess.run(['git', '-C', work, 'checkout', '-q', '--', 'autoconfigure/src/main'], check=True)
    for file, old, new in edits:
        path = leader + file
        text = open(path).read()
        if old not in text:
            sys.exit('break %s no longer applies to %s: update it' % (name, file))
        open(path, 'w').write(text.replace(old, new))
    result = subprocess.run(['./mvnw', '-B', '-o', '-q', '-pl', 'autoconfigure', 'test-compile', 'surefire:test',
        '-Dtest=ElectionSimulationTests#everySeedKeepsThePromises', '-Dsurefire.failIfNoSpecifiedTests=false',
        '-Dzklock.sim.election-seeds=' + os.environ.get('SEEDS', '2000'), '-Dzklock.sim.threads=1'],
        cwd=work, capture_output=True, text=True)
    found = re.findall(r'Seed (\d+) broke ([a-z ]+?) at', result.stdout)
    seen, caught = set(), []
    for seed, promise in found:
        if seed not in seen:
            seen.add(seed)
            caught.append('%s: %s' % (seed, promise))
    print('%-38s %-30s %s' % (name, expected, ', '.join(caught) if caught else 'NOT CAUGHT'), flush=True)
PY
