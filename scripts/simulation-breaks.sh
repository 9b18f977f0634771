#!/usr/bin/env bash
#
# Shows that each check of the lock core's deterministic simulator can fail: for every break below,
# checks the current commit out into a scratch worktree under target/, breaks the lock core on
# purpose there, runs the simulator's seeds in order (one thread) until the first violations, and
# prints which promise was reported broken and at which seed. The worktree is removed at the end.
# The breaks of the blocking entry points run the seeds with blocking callers on simulated threads.
#
#   scripts/simulation-breaks.sh [break ...]      (all breaks when none is named)
#
# Variables: SEEDS (20000), the most seeds a break may take.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SEEDS=${SEEDS:-20000}
WORK="$ROOT/target/simulation-breaks"
cleanup() { git -C "$ROOT" worktree remove --force "$WORK" >/dev/null 2>&1 || true; }
trap cleanup EXIT
mkdir -p "$ROOT/target"
cleanup
git -C "$ROOT" worktree add --detach "$WORK" HEAD >/dev/null

python3 - "$WORK" "${@:-all}" <<'PY'
import os, re, subprocess, sys
work, names = sys.argv[1], sys.argv[2:]
core = os.path.join(work, 'autoconfigure/src/main/java/dev/zklock/lock/')
# name: (promise it should break, [(file, old, new)])
breaks = {
  'grant-before-holding': ('exclusion', [('NodeAcquisition.java',
      'String predecessor = LockNodes.predecessor(children, ours, this.mode);', 'String predecessor = null;')]),
  'suspended-not-in-doubt': ('honesty', [('ActiveLock.java',
      'changed = (this.state == State.VALID);\n\t\t\tif (changed) {\n\t\t\t\tthis.state = State.IN_DOUBT;\n\t\t\t\tthis.reason = "the connection to ZooKeeper was suspended',
      'changed = false;\n\t\t\tif (changed) {\n\t\t\t\tthis.state = State.IN_DOUBT;\n\t\t\t\tthis.reason = "the connection to ZooKeeper was suspended')]),
  'no-confirmation-after-pause': ('honesty', [('ActiveLock.java',
      'if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {\n\t\t\treturn true;\n\t\t}\n\t\treturn confirm();', 'return true;'),
      ('ActiveLock.java', 'if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {\n\t\t\treturn CompletableFuture.completedFuture(true);',
       'if (true) {\n\t\t\treturn CompletableFuture.completedFuture(true);'),
      ('ActiveLock.java', 'return this.state == State.VALID && !this.pauses.mayHavePausedSince(this.confirmedAt);',
       'return this.state == State.VALID;')]),
  'handoff-reuses-grant-token': ('token order', [('GrantBatch.java',
      'return new GrantBatch(node.mode() == dev.zklock.LockMode.SHARED);', 'return new GrantBatch(true);')]),
  'new-zxid-not-taken': ('token order', [('ActiveLock.java',
      'this.tokenZxid = stat.mzxid();', '')]),
  'count-not-above-zxid': ('token order', [('FencingTokenSpace.java',
      'return (zxid << COUNT_BITS) | count;', 'return zxid + count;')]),
  'epoch-dropped-from-token': ('token order', [('FencingTokenSpace.java',
      'return (zxid << COUNT_BITS) | count;', 'return ((zxid & 0xFFFF_FFFFL) << COUNT_BITS) | count;')]),
  'no-handoff-bound': ('handoff bound', [('HandoffBound.java',
      'return !this.othersWait || (', 'return true || (')]),
  'shared-node-never-watches': ('handoff bound', [('KeyLock.java',
      'else if (this.grantsOnNode > 1) {', 'else if (this.grantsOnNode > 1 && Boolean.getBoolean("never")) {')]),
  'abandon-keeps-its-node': ('nothing left behind', [('NodeAcquisition.java',
      'if (path[0] != null) {\n\t\t\tthis.port.delete(path[0], null);', 'if (path[0] != null && Boolean.getBoolean("never")) {\n\t\t\tthis.port.delete(path[0], null);')]),
  'abandon-forgets-transactions': ('nothing left behind', [('NodeAcquisition.java',
      'this.unknown.removeInBackground(this.transactionId);', '')]),
  'release-keeps-holders': ('honesty', [('SessionGuard.java',
      'loseSafely(lock, why, this.interruptOnLost);\n\t\t\t\tlost++;', 'lost++;')]),
  'reconnect-tells-no-key': ('liveness', [('ActiveLock.java',
      'else if (changed) {\n\t\t\tthis.onChange.run();\n\t\t}\n\t}\n\n\tvoid lose(', 'else if (changed && Boolean.getBoolean("never")) {\n\t\t\tthis.onChange.run();\n\t\t}\n\t}\n\n\tvoid lose(')]),
  'reconnect-reads-no-key': ('liveness', [('NodeAcquisition.java',
      'else if (this.ourPath != null) {\n\t\t\t\t\t\tthis.generation++;\n\t\t\t\t\t\tread();\n\t\t\t\t\t}', 'else if (this.ourPath != null) {\n\t\t\t\t\t}')]),
  'several-keys-no-recheck': ('starts valid', [('AsyncAcquisition.java',
      'if (held.size() == 1) {\n\t\t\t\tfinish(new Acquisition(held));', 'if (held.size() >= 1) {\n\t\t\t\tfinish(new Acquisition(held));')]),
  'answer-off-executor': ('on the executor', [('AsyncAcquisition.java',
      'this.executor.execute(task);', 'task.run();')]),
  'no-deadline-timer': ('wait time', [('AsyncAcquisition.java',
      'if (!this.deadline.isForever()) {\n\t\t\tcurrent.schedule(', 'if (!this.deadline.isForever() && Boolean.getBoolean("never")) {\n\t\t\tcurrent.schedule(')]),
  'finish-hides-loss': ('lost reported', [('LockEngine.java',
      '.thenApply((released) -> lost));', '.thenApply((released) -> null));')]),
  'last-come-first-served': ('first come first served', [('KeyLock.java',
      'this.queue.add(request);', 'this.queue.addFirst(request);')]),
  'mutex-names-read-as-shared': ('exclusion', [('LockNodes.java',
      'return isLockNode(child) && !child.contains(READ);', 'return child.contains(WRITE);')]),
  'mutex-names-ordered-by-marker': ('exclusion', [('LockNodes.java',
      'if (mutex >= 0) {\n\t\t\treturn', 'if (mutex >= 0 && Boolean.getBoolean("never")) {\n\t\t\treturn')]),
  'creating-after-the-create': ('liveness', [('NodeAcquisition.java',
      'this.phase = Phase.CREATING;\n\t\tthis.earlyRead = null;\n\t\tthis.earlyReadFailed = false;\n\t\tint gen = this.generation;\n\t\tthis.port.createLockNode(LockNodes.path(this.keyPath, LockNodes.marker(this.mode, this.names)), this.data,\n\t\t\t\tcreateReply(gen, this::created, Created::path, null));',
      'this.earlyRead = null;\n\t\tthis.earlyReadFailed = false;\n\t\tint gen = this.generation;\n\t\tthis.port.createLockNode(LockNodes.path(this.keyPath, LockNodes.marker(this.mode, this.names)), this.data,\n\t\t\t\tcreateReply(gen, this::created, Created::path, null));\n\t\tthis.phase = Phase.CREATING;')]),
  'release-skips-key-requests': ('released node replaced', [('LockEngine.java',
      'for (KeyLock keyLock : this.keyLocks.all()) {\n\t\t\tkeyLock.released(nodePaths);\n\t\t}\n', '')]),
  'spent-key-keeps-unknown-node': ('liveness', [('NodeAcquisition.java',
      'this.unknown.removeInBackground(null);\n\t\tthis.port.delete(this.keyPath, null);', 'this.port.delete(this.keyPath, null);')]),
  'last-node-left-when-others-came': ('liveness', [('KeyLock.java',
      'port.delete(path, (again, none) -> deleted.complete(null));', 'deleted.complete(null);')]),
  # Breaks of the blocking entry points: run with blocking callers on simulated threads.
  'blocking-several-keys-no-recheck': ('starts valid', [('LockEngine.java',
      'acquired = holds.size() == 1 || ownGrantsValid(holds);', 'acquired = true;')], 'blocking'),
  'blocking-gives-back-waiting': ('wait time', [('LockEngine.java',
      'release(holds, false);', 'release(holds, true);')], 'blocking'),
  'blocking-ensure-held-hides-loss': ('lost reported', [('Acquisition.java',
      'if (!hold.lock().isValid()) {\n\t\t\t\tthrow lost(hold);', 'if (!hold.lock().isValid() && Boolean.getBoolean("never")) {\n\t\t\t\tthrow lost(hold);')], 'blocking'),
  'no-reentrancy': ('reentrancy', [('LockEngine.java',
      'Hold outer = ThreadHolds.find(key);', 'Hold outer = null;')], 'blocking'),
  'release-keeps-thread-holds': ('starts valid', [('LockEngine.java',
      'ThreadHolds.remove(hold);\n\t\t\tif (hold.owner()) {\n\t\t\t\treleaseOwned(hold, awaitDelete);',
      'if (hold.owner()) {\n\t\t\t\treleaseOwned(hold, awaitDelete);')], 'blocking'),
  'token-taken-under-batch-lock': ('simulated threads', [('GrantBatch.java',
      'long taken = tokenTaken(lock.newToken());',
      'long taken;\n\t\t\tacquire();\n\t\t\ttry {\n\t\t\t\ttaken = tokenTaken(lock.newToken());\n\t\t\t}\n\t\t\tfinally {\n\t\t\t\tthis.lock.unlock();\n\t\t\t}')], 'blocking'),
  'own-node-returned-unchecked': ('starts valid', [('LockEngine.java',
      'if (lock.isValid()) {\n\t\t\t\treturn hold;', 'if (true) {\n\t\t\t\treturn hold;')], 'blocking'),
  'release-skips-own-node-calls': ('released node replaced', [('LockEngine.java',
      'this.recipe.released(nodePaths);\n', '')], 'blocking'),
  'blocking-wait-beside-the-port': ('simulated threads', [('Deadline.java',
      'return port.await(answer, Math.min(nanos, POLL_NANOS));', 'return answer.get(Math.min(nanos, POLL_NANOS), TimeUnit.NANOSECONDS);')], 'blocking'),
}
selected = list(breaks) if names == ['all'] else names
print('%-30s %-22s %s' % ('break', 'expected', 'first violations (seed: promise)'))
for name in selected:
    expected, edits, *mode = breaks[name]
    subprocess.run(['git', '-C', work, 'checkout', '-q', '--', 'autoconfigure/src/main'], check=True)
    for file, old, new in edits:
        path = core + file
        text = open(path).read()
        if old not in text:
            sys.exit('break %s no longer applies to %s: update it' % (name, file))
        open(path, 'w').write(text.replace(old, new))
    result = subprocess.run(['./mvnw', '-B', '-o', '-q', '-pl', 'autoconfigure', 'test-compile', 'surefire:test',
        '-Dtest=LockCoreSimulationTests#everySeedKeepsThePromises', '-Dsurefire.failIfNoSpecifiedTests=false',
        '-Dzklock.sim.seeds=' + os.environ.get('SEEDS', '20000'), '-Dzklock.sim.threads=1',
        '-Dzklock.sim.blocking=' + str(mode == ['blocking']).lower()],
        cwd=work, capture_output=True, text=True)
    found = re.findall(r'Seed (\d+) broke ([a-z ]+?)(?: at|:)', result.stdout)
    seen, caught = set(), []
    for seed, promise in found:
        if seed not in seen:
            seen.add(seed)
            caught.append('%s: %s' % (seed, promise))
    print('%-30s %-22s %s' % (name, expected, ', '.join(caught) if caught else 'NOT CAUGHT'), flush=True)
PY
