#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two merlin processes on one image, and merlin killed (issue 30,
# docs/cli.md "Concurrent runs"):
#   concurrent.sh MERLIN together  two `merlin run --target qemu-m4` into
#                                  different --out at once (same image, the
#                                  cycle plugin on) beside a busy process:
#                                  both exit 0, with the same instruction
#                                  counts and estimates
#   concurrent.sh MERLIN kill      merlin killed (SIGKILL, SIGTERM, SIGINT)
#                                  while a build runs (a stand-in cmake that
#                                  starts a child) and while QEMU runs: no
#                                  process of theirs is left; the run's own
#                                  directory of the SIGKILLed one goes at
#                                  the next run of the image
set -euo pipefail
merlin=$1 mode=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-concurrent.XXXXXX")
token="merlin-kill-test-$$"
cleanup() {
  pkill -KILL -f "$token" 2>/dev/null || true
  rm -rf "$work" "$root"/build/img/host-"$token"*
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"
n=0
host=$(hostname | tr '/ ' '__')

# gone PATTERN: no process whose command line matches PATTERN within 5 s.
gone() {
  for _ in $(seq 1 50); do
    pgrep -f "$1" >/dev/null || return 0
    sleep 0.1
  done
  pgrep -fa "$1" || true
  return 1
}

# appears PATTERN COUNT: COUNT such processes within 120 s.
appears() {
  for _ in $(seq 1 1200); do
    [ "$(pgrep -fc "$1" || true)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

case $mode in
together)
  # A busy neighbour on the machine while both run: QEMU's blocks are cut
  # where the host's timing says, and the estimate must not move with it
  # (docs/cycle-model.md, "Exact estimates").
  bash -c 'exec -a '"$token"'-busy bash -c "while :; do :; done"' &
  busy=$!
  run=(run --target qemu-m4 --runs 2 --warmup 0 --quiet)
  "$merlin" "${run[@]}" --out "$work/a" >"$work/a.log" 2>&1 &
  a=$!
  "$merlin" "${run[@]}" --out "$work/b" >"$work/b.log" 2>&1 &
  b=$!
  ra=0 rb=0
  wait "$a" || ra=$?
  wait "$b" || rb=$?
  kill "$busy" 2>/dev/null || true
  cat "$work/a.log" "$work/b.log"
  [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || fail "two runs at once: exits $ra and $rb"
  node -e '
    const [a, b] = process.argv.slice(1).map((f) => require(f));
    const key = (o) => JSON.stringify([o.samples, o.est_cycles, o.stack_bytes, o.heap_bytes]);
    const x = a.runs[0].ops, y = b.runs[0].ops;
    if (x.length !== y.length || x.length === 0) throw new Error("different operations");
    const bad = x.filter((o, i) => key(o) !== key(y[i]));
    if (bad.length) throw new Error(bad.length + " operations differ, first " + bad[0].alg + " " + bad[0].op);
    if (!x.some((o) => o.est_cycles)) throw new Error("no cycle estimates: the plugin did not run");
    console.log(x.length + " operations, the same samples and estimates");' \
    "$work/a/latest/results.json" "$work/b/latest/results.json" || fail "the two runs differ"
  n=2
  ;;
kill)
  # A stand-in for cmake: it starts a child and waits, as a build does.
  mkdir -p "$work/bin"
  cat >"$work/bin/cmake" <<EOF
#!/usr/bin/env bash
bash -c 'exec -a $token-compiler sleep 300' &
exec -a $token-cmake sleep 300
EOF
  chmod +x "$work/bin/cmake"
  printf 'description = kill test\nsha256 = wolfcrypt\n' >"$work/$token.profile"
  for sig in KILL TERM INT; do
    PATH="$work/bin:$PATH" "$merlin" run --target host --profile "$work/$token.profile" \
      --out "$work/out" >"$work/log" 2>&1 &
    pid=$!
    appears "$token-" 2 || { cat "$work/log"; fail "the stand-in build did not start"; }
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null || true
    gone "$token-" || fail "SIG$sig of merlin during a build left its processes"
    n=$((n + 1))
  done
  # QEMU: the run executes its own copy of the image, in run-PID-N.
  bdir="$root/build/img/qemu-m4-default"
  for sig in KILL TERM INT; do
    "$merlin" run --target qemu-m4 --runs 100000 --warmup 0 --cycle-model off \
      --out "$work/out" >"$work/log" 2>&1 &
    pid=$!
    appears "qemu-system-arm .*run-$host-$pid-" 1 || { cat "$work/log"; fail "QEMU did not start"; }
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null || true
    gone "run-$host-$pid-" || fail "SIG$sig of merlin during a QEMU run left QEMU running"
    n=$((n + 1))
  done
  # The SIGKILLed run's directory is still there; the next run removes it.
  "$merlin" run --target qemu-m4 --runs 100000 --warmup 0 --cycle-model off \
    --out "$work/out" >"$work/log" 2>&1 &
  pid=$!
  appears "qemu-system-arm .*run-$host-$pid-" 1 || fail "QEMU did not start"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  gone "run-$host-$pid-" || fail "SIGKILL left QEMU running"
  ls -d "$bdir/run-$host-$pid-"* >/dev/null 2>&1 || fail "no run directory of the killed run to remove"
  "$merlin" run --target qemu-m4 --kat-only --quiet >/dev/null 2>&1 ||
    fail "a KAT-only run after the kill failed"
  if ls -d "$bdir/run-$host-$pid-"* >/dev/null 2>&1; then
    fail "the killed run's directory is still there after the next run"
  fi
  n=$((n + 1))
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "$n passed, 0 failed"
