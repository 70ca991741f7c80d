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
#                                     (its name whole, with merlin's marker)
#   robust2.sh MERLIN target-list     --target lists after a comma list
#                                     (found by fuzz_cli)
#   robust2.sh MERLIN board-options   --board, --cycle-model, --accel and
#                                     --flash-ws conflicts: exit 2 before
#                                     anything is built (issue 30)
#   robust2.sh MERLIN board-files     hostile board files in a copy of
#                                     boards/: refused when read, with file,
#                                     line and what is allowed (issue 30)
set -euo pipefail
merlin=$1 mode=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-robust2.XXXXXX")
bg=
trap '[ -z "$bg" ] || kill "$bg" 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
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
    # the marker merlin writes first (model/results_dir.c)
    printf 'merlin: results being written by process %s; removed with this directory when that process is gone\n' \
      "$p" >"$work/out/.tmp-20260101-000000-$p/.merlin-tmp"
    echo '{}' >"$work/out/.tmp-20260101-000000-$p/results.json"
    echo x >"$work/out/.tmp-20260101-000000-$p/console-host-r2.log"
  done
  ln -s 20260101-000000 "$work/out/.latest.tmp-$dead"
  mkdir "$work/out/.tmp-keep-$dead" && mkdir "$work/out/.tmp-keep-$dead/sub"
  mkdir -p "$work/out/.tmp-20260101-000001-$dead/sub"
  printf 'merlin: results being written by process %s; removed with this directory when that process is gone\n' \
    "$dead" >"$work/out/.tmp-20260101-000001-$dead/.merlin-tmp"
  expect 0 "results written" \
    "$merlin" run --target host --from "$cap" --out "$work/out" --quiet
  [ ! -e "$work/out/.tmp-20260101-000000-$dead" ] ||
    fail "the dead run's temporary directory was kept"
  [ ! -L "$work/out/.latest.tmp-$dead" ] ||
    fail "the dead run's temporary link was kept"
  [ -s "$work/out/.tmp-20260101-000000-$live/results.json" ] ||
    fail "a live run's temporary directory was touched"
  [ -d "$work/out/.tmp-keep-$dead/sub" ] ||
    fail "a directory merlin does not name was removed"
  [ -d "$work/out/.tmp-20260101-000001-$dead/sub" ] ||
    fail "a directory holding a subdirectory was removed"
  [ -s "$work/out/latest/results.json" ] || fail "latest is not complete"
  ;;
target-list)
  # A second --target after a comma list: each target once, none garbled
  # (the checks go on to the profile, which is what fails here).
  for t in "host,qemu-m3 --target qemu-m4" \
    "qemu-m3,host --target qemu-m4,qemu-m7 --target qemu-m33"; do
    # shellcheck disable=SC2086
    expect 2 "unknown profile 'nosuch'" \
      "$merlin" build --target $t --profile nosuch
    lacks "given twice"
  done
  expect 2 "target 'host' given twice" \
    "$merlin" build --target qemu-m3,host --target host --profile nosuch
  # an empty name in a list is refused, as --impl's is (issue 43)
  expect 2 "--target 'host,,qemu-m3': an empty target name" \
    "$merlin" build --target host,,qemu-m3 --target qemu-m4 --profile nosuch
  ;;
board-options)
  # Each is a usage error found before the image build starts: no build
  # directory of the profile appears (build/img/<target>-i30opts*).
  root=$(cd "$(dirname "$0")/../.." && pwd)
  printf 'description = i30\nsha256 = wolfcrypt\n' >"$work/i30opts.profile"
  run=("$merlin" run --profile "$work/i30opts.profile" --out "$work/out")
  expect 2 "--board nosuch: no such part in boards/ (merlin list boards)" \
    "${run[@]}" --target qemu-m4 --board nosuch
  expect 2 "--board rp2040-pico is a cortex-m0plus part; target qemu-m4 runs cortex-m4" \
    "${run[@]}" --target qemu-m4 --board rp2040-pico
  expect 2 "--board qemu-m4: boards/qemu-m4.board describes no memory system" \
    "${run[@]}" --target qemu-m4 --board qemu-m4
  expect 2 "--cycle-model m0plus models cortex-m0plus; --board nucleo-f439zi is a cortex-m4 part" \
    "${run[@]}" --target qemu-m4 --board nucleo-f439zi --cycle-model m0plus
  expect 2 "--board nucleo-f439zi needs the cycle model: drop --cycle-model off" \
    "${run[@]}" --target qemu-m4 --board nucleo-f439zi --cycle-model off
  expect 2 "--accel keccak=100 needs the cycle model: drop --cycle-model off" \
    "${run[@]}" --target qemu-m4 --accel keccak=100 --cycle-model off
  expect 2 "--flash-ws 3 needs the cycle model: drop --cycle-model off" \
    "${run[@]}" --target qemu-m4 --flash-ws 3 --cycle-model off
  expect 2 "--board needs the cycle plugin, which runs on QEMU targets; host is not one" \
    "${run[@]}" --target host --board nucleo-f439zi
  if compgen -G "$root/build/img/*-i30opts*" >/dev/null; then
    fail "a build started: $(echo "$root"/build/img/*-i30opts*)"
  fi
  ;;
board-files)
  # A copy of boards/ (MERLIN_ROOT) with one hostile part: every command that
  # reads the descriptors stops at it (exit 1) with file, line, the value
  # shown (control characters as \xNN) and what is allowed; none crashes.
  mkdir -p "$work/root/boards"
  touch "$work/root/CMakeLists.txt"
  root=$(cd "$(dirname "$0")/../.." && pwd)
  cp "$root"/boards/*.board "$work/root/boards/"
  # part 'KEY = VALUE'...: boards/x.board, a part with a memory system
  # (lines 1 to 11), each argument replacing its key's line or, for another
  # key, appended from line 12 (printf %b: \033 is an escape, \000 a NUL).
  part() {
    local base=('name = Bad' 'part = b' 'core = cortex-m4' 'target = none'
      'clock_hz = 1' 'flash_bytes = 1' 'ram_bytes = 1' 'counter = c'
      'source = s' 'memory_source = m' 'runs_from = flash')
    local f=$work/root/boards/x.board line a in
    : >"$f"
    for line in "${base[@]}"; do
      for a in "$@"; do [[ $a != "${line%% =*} = "* ]] || line=$a; done
      printf '%b\n' "$line" >>"$f"
    done
    for a in "$@"; do
      in=0
      for line in "${base[@]}"; do [[ $a != "${line%% =*} = "* ]] || in=1; done
      [ $in = 1 ] || printf '%b\n' "$a" >>"$f"
    done
  }
  # bad LINE NEEDLE 'KEY = VALUE'...: list boards and run refuse it there.
  bad() {
    local at="boards/x.board:$1: $2"
    shift 2
    part "$@"
    MERLIN_ROOT=$work/root expect 1 "$at" "$merlin" list boards
    MERLIN_ROOT=$work/root expect 1 \
      "cannot read the target descriptors: $at" \
      "$merlin" run --target qemu-m4 --board x --out "$work/out"
    if grep -q "$(printf '\033')" "$work/log"; then
      fail "an escape byte reached the terminal"
    fi
  }
  miss='flash_miss_cycles = 5'
  # was SIGFPE in the model (LINE x WAYS wraps to 0)
  bad 12 "icache = 1024/9223372036854775808/2: LINE x WAYS is more than BYTES; allowed: BYTES/LINE/WAYS: BYTES from 1 to 16777216" \
    'icache = 1024/9223372036854775808/2' "$miss"
  # were accepted, then refused by the plugin after the build
  bad 12 "icache = 33554432/32/4: BYTES out of range" \
    'icache = 33554432/32/4' "$miss"
  bad 12 "icache = 3072/16/64: the number of sets, BYTES / (LINE x WAYS), is not a power of two" \
    'icache = 3072/16/64' "$miss"
  bad 12 "icache = -1024/16/4: not BYTES/LINE/WAYS" 'icache = -1024/16/4' "$miss"
  bad 12 "flash_miss_cycles = 1001: out of range; allowed: a whole number from 0 to 1000" \
    'flash_miss_cycles = 1001'
  bad 15 "unified_cache = yes excludes 'dcache' (line 14): one cache serves instructions and data" \
    "$miss" 'icache = 1024/16/4' 'dcache = 128/16/8' 'unified_cache = yes'
  # were modelled silently as something else, or not checked
  bad 11 "runs_from = rom: not one of the choices; allowed: flash, sram" \
    'runs_from = rom' "$miss"
  bad 13 "prefetch = maybe: not one of the choices; allowed: yes, no" \
    "$miss" 'prefetch = maybe'
  bad 3 "core = cortex-m99: not a core merlin knows" 'core = cortex-m99' "$miss"
  bad 11 "runs_from = flash needs 'flash_miss_cycles'" 'zero_wait = SRAM'
  # numbers and text
  bad 5 "clock_hz = 18446744073709551616: more than 2^64 - 1" \
    'clock_hz = 18446744073709551616' "$miss"
  bad 1 'name = Bad\x1b[2Jwiped: holds a control character' \
    'name = Bad\033[2Jwiped' "$miss"
  bad 1 'name = B\x00ad: holds a control character' 'name = B\000ad' "$miss"
  # fine now: no wait states (was refused as 0), the largest 64-bit clock
  part 'flash_miss_cycles = 0' 'flash_wait_states = 0' \
    'clock_hz = 18446744073709551615'
  MERLIN_ROOT=$work/root expect 0 "  x " "$merlin" list boards
  MERLIN_ROOT=$work/root expect 0 "qemu-m4" "$merlin" list targets
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "$n passed, 0 failed"
