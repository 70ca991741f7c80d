#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `merlin run --port` on a pseudo-terminal (issue 6, part 3): a qemu-m4 run
# of a tiny profile gives a real wire stream; pty_feed plays it into the
# master side of a pty as a board's UART would, and merlin reads the slave.
#   pty.sh MERLIN PTY_FEED CHECK_RESULTS
# Checks: a clean stream gives the same results as --from on the same
# capture; a dropped line, a garbled line (bad CRC), a stream cut short and
# a port with no begin record are each rejected with the reader's message
# and write nothing; usage errors of --port/--baud exit 2.
set -euo pipefail
merlin=$1 feed=$2 check=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-pty.XXXXXX")
feeder=
cleanup() {
  [ -n "$feeder" ] && kill "$feeder" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"

# The stream: QEMU run directly (as merlin runs it), so no size images are
# built; the profile has its own build directory (qemu-m4-pty-tiny).
printf 'description = pty test\nsha256 = wolfcrypt\nhmac-sha256 = wolfcrypt\n' \
  >"$work/pty-tiny.profile"
img=$("$merlin" build --target qemu-m4 --profile "$work/pty-tiny.profile" --quiet)
timeout 120 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none \
  -monitor none -serial stdio \
  -semihosting-config enable=on,target=native,arg=merlin-image,arg=--runs,arg=9,arg=--warmup,arg=1 \
  -icount shift=7,align=off,sleep=off -kernel "$img" >"$work/stream.txt"
grep -q ' end records=.* status=ok ' "$work/stream.txt" ||
  fail "the QEMU run gave no complete stream"
nlines=$(grep -c '^@M1 ' "$work/stream.txt")
[ "$nlines" -gt 10 ] || fail "stream too short ($nlines wire lines)"

# port_run NAME [pty_feed mode] -- merlin options...: feed $work/NAME into
# a fresh pty and run merlin on it; its output in $work/log, status in rc.
port_run() {
  local stream=$1 mode=$2
  shift 2
  rm -f "$work/name"
  "$feed" "$work/$stream" "$work/name" $mode &
  feeder=$!
  for _ in $(seq 1 100); do [ -s "$work/name" ] && break; sleep 0.05; done
  [ -s "$work/name" ] || fail "pty_feed gave no pty name"
  set +e
  "$merlin" run --target qemu-m4 --port "$(cat "$work/name")" "$@" \
    >"$work/log" 2>&1
  rc=$?
  set -e
  wait "$feeder" || true
  feeder=
  cat "$work/log"
}

no_results() {
  if find "$work/$1" -name results.json 2>/dev/null | grep -q .; then
    fail "$2: results were written"
  fi
}

# 1. The clean stream: results, the same as --from on the capture.
port_run stream.txt "" --out "$work/port" --timeout 60
[ "$rc" -eq 0 ] || fail "clean stream: exit $rc"
grep -q "results written" "$work/log" || fail "clean stream: no results"
"$check" structure "$work/port/latest/results.json" qemu-m4 \
  sha256/hash/wolfcrypt hmac-sha256/mac/wolfcrypt
cmp "$work/port/latest/console-qemu-m4-pty-tiny.log" <(sed -n '/^@M1 0 begin /,$p' "$work/stream.txt") ||
  fail "the kept console log is not the stream from its begin record"
"$merlin" run --target qemu-m4 --from "$work/stream.txt" --out "$work/from" \
  --quiet >/dev/null
"$check" same-medians "$work/port/latest/results.json" \
  "$work/from/latest/results.json"

# 2. A dropped line (the 8th wire line): sequence gap, nothing written.
awk '/^@M1 /{n++; if (n == 8) next} {print}' "$work/stream.txt" >"$work/dropped.txt"
port_run dropped.txt "" --out "$work/drop" --timeout 60
[ "$rc" -eq 1 ] || fail "dropped line: exit $rc, want 1"
grep -q "console stream rejected: line [0-9]*: sequence number 8 after 6: 1 line(s) missing" "$work/log" ||
  fail "dropped line: not the reader's message"
grep -q "no results written" "$work/log" || fail "dropped line: no verdict"
grep -q "raw console kept in build/port-qemu-m4.log" "$work/log" ||
  fail "dropped line: the capture is not kept"
no_results drop "dropped line"

# 3. A garbled line: one character of the 6th wire line changed, its CRC
# left as it was.
awk '/^@M1 /{n++; if (n == 6) sub(/=/, "~")} {print}' "$work/stream.txt" >"$work/garbled.txt"
cmp -s "$work/stream.txt" "$work/garbled.txt" && fail "garbling changed nothing"
port_run garbled.txt "" --out "$work/garble" --timeout 60
[ "$rc" -eq 1 ] || fail "garbled line: exit $rc, want 1"
grep -q "console stream rejected: line [0-9]*: CRC mismatch .*: the line was garbled" "$work/log" ||
  fail "garbled line: not the reader's message"
no_results garble "garbled line"

# 4. The port goes away before the end record.
head -n "$((nlines / 2))" "$work/stream.txt" >"$work/cut.txt"
port_run cut.txt close --out "$work/cut" --timeout 60
[ "$rc" -eq 1 ] || fail "cut stream: exit $rc, want 1"
grep -q "stopped before its end record (the port closed)" "$work/log" ||
  fail "cut stream: the port closing is not named"
grep -q "console stream rejected" "$work/log" || fail "cut stream: not rejected"
no_results cut "cut stream"

# 5. Only noise, never a begin record: the timeout says what to check.
printf 'hello from a board without the merlin image\n' >"$work/noise.txt"
port_run noise.txt "" --out "$work/noise" --timeout 3
[ "$rc" -eq 1 ] || fail "no begin: exit $rc, want 1"
grep -q "no begin record on .* within the timeout" "$work/log" ||
  fail "no begin: message"
no_results noise "no begin"

# 6. Usage and device errors.
expect() {
  local want=$1 needle=$2
  shift 2
  set +e
  "$@" >"$work/log" 2>&1
  local r=$?
  set -e
  cat "$work/log"
  [ "$r" -eq "$want" ] || fail "'$*' exited $r, want $want"
  grep -qF -- "$needle" "$work/log" || fail "'$*': message lacks '$needle'"
}
expect 2 "--baud 12345 is not a supported rate" \
  "$merlin" run --target qemu-m4 --port /dev/null --baud 12345
expect 2 "--baud 115200 needs --port" "$merlin" run --target qemu-m4 --baud 115200
expect 2 "--port and --from both give the stream" \
  "$merlin" run --target qemu-m4 --port /dev/null --from "$work/stream.txt"
expect 2 "give exactly one --target" \
  "$merlin" run --target qemu-m4,host --port /dev/null
expect 2 "do not apply" "$merlin" run --target qemu-m4 --port /dev/null --runs 3
expect 2 "rp2040-pico is a real board: read it on its own" \
  "$merlin" run --target qemu-m4,rp2040-pico
expect 1 "cannot open $work/none" \
  "$merlin" run --target qemu-m4 --port "$work/none" --out "$work/x"
expect 1 "is not a serial port" \
  "$merlin" run --target qemu-m4 --port "$work/stream.txt" --out "$work/x"
no_results x "device errors"
echo "pty: all checks passed"
