#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bad input and long runs, round two (issue 20): each mode is one behaviour
# of the CLI surface, checked in seconds on the host (no QEMU). Streams come
# from a one-sample host run of a one-algorithm profile (build/img/host-r2).
#   robust2.sh MERLIN fifo            a FIFO as an input never blocks
#   robust2.sh MERLIN interrupt       SIGINT during a run exits 130
#   robust2.sh MERLIN coverage        list coverage of a missing/corrupt DIR
#   robust2.sh MERLIN from-options    --from with --runs/--warmup/--timeout,
#                                     an unknown --profile
#   robust2.sh MERLIN unknown-command the message names every command
#   robust2.sh MERLIN kat-only-reason --kat-only says the real reason
#   robust2.sh MERLIN long-out        a 5000-byte --out keeps the reason
#   robust2.sh MERLIN stdout          a full or closed stdout fails
#   robust2.sh MERLIN stale-tmp       a dead run's OUT/.tmp-* is removed
#   robust2.sh MERLIN target-list     --target lists after a comma list
#                                     (found by fuzz_cli)
set -euo pipefail
merlin=$1 mode=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-robust2.XXXXXX")
bg=
trap '[ -z "$bg" ] || kill "$bg" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0

# expect RC NEEDLE CMD...: CMD exits RC within 20 s and says NEEDLE.
expect() {
  local want=$1 needle=$2
  shift 2
  set +e
  timeout 20 "$@" >"$work/log" 2>&1 </dev/null
  local rc=$?
  set -e
  cat "$work/log"
  [ "$rc" -ne 124 ] || fail "'$*' hung (killed after 20 s)"
  [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, want $want"
  grep -qF -- "$needle" "$work/log" || fail "'$*': message lacks '$needle'"
  n=$((n + 1))
}
# lacks NEEDLE: the last expect's output does not say NEEDLE.
lacks() {
  if grep -qF -- "$1" "$work/log"; then fail "message says '$1'"; fi
}
no_results() {
  if find "$1" -name results.json 2>/dev/null | grep -q .; then
    fail "results written in $1"
  fi
}

# A captured host stream (timed, one sample per operation) in $cap.
printf 'description = robust2\nsha256 = wolfcrypt\n' >"$work/r2.profile"
capture() {
  "$merlin" run --target host --profile "$work/r2.profile" --runs 1 \
    --warmup 0 --out "$work/cap" --quiet >/dev/null
  cap=$work/cap/latest/console-host-r2.log
  [ -s "$cap" ] || fail "no capture written"
}

case $mode in
fifo)
  mkfifo "$work/f" "$work/f.profile"
  mkdir -p "$work/dir" && mkfifo "$work/dir/results.json"
  expect 1 "not a regular file (a FIFO)" \
    "$merlin" run --target qemu-m4 --from "$work/f" --out "$work/out"
  expect 2 "not a regular file (a FIFO)" \
    "$merlin" run --target host --profile "$work/f.profile" --out "$work/out"
  expect 1 "not a regular file (a FIFO)" "$merlin" report "$work/dir"
  expect 2 "not a regular file (a FIFO)" "$merlin" compare "$work/f" "$work/f"
  expect 1 "not a regular file (a FIFO)" "$merlin" list coverage "$work/f"
  expect 1 "not a regular file (a FIFO)" "$merlin" list coverage "$work/dir"
  no_results "$work/out"
  ;;
interrupt)
  # A host image that hangs, interrupted while it runs: 130, nothing
  # written (build/img/host-r2-fault-hang).
  set +e
  "$merlin" run --target host --profile "$work/r2.profile" --runs 1 \
    --warmup 0 --inject-fault hang --out "$work/out" >"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 1 1200); do
    grep -q "running" "$work/log" && break
    sleep 0.1
  done
  sleep 0.5
  kill -INT "$pid"
  wait "$pid"
  rc=$?
  set -e
  cat "$work/log"
  [ "$rc" -eq 130 ] || fail "SIGINT during a run exited $rc, want 130"
  grep -q "interrupted; no results written" "$work/log" ||
    fail "no 'interrupted; no results written'"
  no_results "$work/out"
  n=$((n + 1))
  ;;
coverage)
  expect 1 "/nonexistent: No such file or directory" \
    "$merlin" list coverage /nonexistent
  lacks "| algorithm |"
  mkdir -p "$work/bad" && echo '{"runs": [' >"$work/bad/results.json"
  expect 1 "results.json" "$merlin" list coverage "$work/bad"
  lacks "| algorithm |"
  mkdir -p "$work/empty"
  expect 1 "results.json" "$merlin" list coverage "$work/empty"
  lacks "| algorithm |"
  capture
  expect 0 "| sha256 |" "$merlin" list coverage "$work/cap/latest"
  grep -q "^| sha256 | ✓" "$work/log" || fail "sha256/wolfcrypt is not ✓"
  ;;
from-options)
  capture
  out=(--out "$work/out")
  for opt in "--runs 7" "--warmup 3" "--timeout 60" "--stall 60"; do
    # shellcheck disable=SC2086
    expect 2 "--timeout and --stall do not apply" \
      "$merlin" run --target host --from "$cap" $opt "${out[@]}"
  done
  expect 2 "unknown profile 'nosuch'; valid: " \
    "$merlin" run --target host --from "$cap" --profile nosuch "${out[@]}"
  grep -q "default" "$work/log" || fail "the valid profiles are not listed"
  # The stream's own profile, by path, still reads.
  expect 0 "results written" \
    "$merlin" run --target host --from "$cap" --profile "$work/r2.profile" \
    "${out[@]}" --quiet
  # What such a run lacks is marked absent in report.md, not left out.
  grep -q '^| not in this run | .*sizes and board fits' \
    "$work/out/latest/report.md" || fail "report.md does not mark the absent figures"
  ;;
unknown-command)
  expect 2 "unknown command 'frobnicate'" "$merlin" frobnicate
  for c in run build report compare sizes list; do
    grep -q "[ ,]$c[,( ]" "$work/log" || fail "the message leaves out $c"
  done
  expect 2 "unknown command 'frobnicate'" "$merlin" help frobnicate
  grep -q "compare" "$work/log" || fail "help COMMAND leaves out compare"
  ;;
kat-only-reason)
  capture
  expect 1 "--kat-only, but the stream has timed runs" \
    "$merlin" run --target host --from "$cap" --kat-only
  lacks "known-answer tests failed"
  grep -q "no results written" "$work/log" || fail "no 'no results written'"
  ;;
long-out)
  capture
  long=$work/$(printf 'x%.0s' $(seq 1 5000))
  expect 1 "File name too long" \
    "$merlin" run --target host --from "$cap" --out "$long"
  grep -q "no results written" "$work/log" || fail "no 'no results written'"
  grep -q "a path of 50[0-9][0-9] bytes" "$work/log" ||
    fail "the long path is not shortened"
  ;;
stdout)
  capture
  expect 1 "cannot write to stdout: No space left on device" \
    sh -c '"$1" list >/dev/full' sh "$merlin"
  expect 1 "cannot write to stdout: it is closed" \
    sh -c '"$1" list >&-' sh "$merlin"
  expect 1 "cannot write to stdout" sh -c '"$1" --version >/dev/full' sh \
    "$merlin"
  # The summary cannot be printed: the run fails before writing results.
  expect 1 "no results written" \
    sh -c '"$1" run --target host --from "$2" --out "$3" >/dev/full' sh \
    "$merlin" "$cap" "$work/out"
  no_results "$work/out"
  ;;
stale-tmp)
  capture
  mkdir -p "$work/out"
  sh -c 'exit 0' &
  dead=$!
  wait "$dead"
  sleep 60 &
  live=$! bg=$!
  for p in "$dead" "$live"; do
    mkdir "$work/out/.tmp-20260101-000000-$p"
    echo '{}' >"$work/out/.tmp-20260101-000000-$p/results.json"
    echo x >"$work/out/.tmp-20260101-000000-$p/console-host-r2.log"
  done
  ln -s 20260101-000000 "$work/out/.latest.tmp-$dead"
  mkdir "$work/out/.tmp-keep-$dead" && mkdir "$work/out/.tmp-keep-$dead/sub"
  expect 0 "results written" \
    "$merlin" run --target host --from "$cap" --out "$work/out" --quiet
  [ ! -e "$work/out/.tmp-20260101-000000-$dead" ] ||
    fail "the dead run's temporary directory was kept"
  [ ! -L "$work/out/.latest.tmp-$dead" ] ||
    fail "the dead run's temporary link was kept"
  [ -s "$work/out/.tmp-20260101-000000-$live/results.json" ] ||
    fail "a live run's temporary directory was touched"
  [ -d "$work/out/.tmp-keep-$dead/sub" ] ||
    fail "a directory holding a subdirectory was removed"
  [ -s "$work/out/latest/results.json" ] || fail "latest is not complete"
  ;;
target-list)
  # A second --target after a comma list: each target once, none garbled
  # (the checks go on to the profile, which is what fails here).
  for t in "host,qemu-m3 --target qemu-m4" "host,,qemu-m3 --target qemu-m4" \
    "qemu-m3,host --target qemu-m4,qemu-m7 --target qemu-m33"; do
    # shellcheck disable=SC2086
    expect 2 "unknown profile 'nosuch'" \
      "$merlin" build --target $t --profile nosuch
    lacks "given twice"
  done
  expect 2 "target 'host' given twice" \
    "$merlin" build --target qemu-m3,host --target host --profile nosuch
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "$n passed, 0 failed"
