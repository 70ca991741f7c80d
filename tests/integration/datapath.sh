#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The data path on crafted inputs (issue 20, round two): console streams made
# by craft.js (right sequence numbers and CRCs, hostile contents) read with
# `merlin run --from`, and results.json files edited by node. No QEMU.
#   datapath.sh MERLIN MODE
#   counts      counts beyond a JSON integer are rejected at their line; the
#               largest one that fits is written the same in JSON and CSV
#   names       target/profile names that would make paths are rejected
#   duplicate   an operation announced twice is rejected at its line
#   stats       edited statistics are rejected, naming run, op and field
#   force       compare --force pairs runs of other compilers / -O levels
#   zero        a change from a median of 0 is flagged, not "+0.00%"
#   crafted     ~200 hostile streams: rejected naming a line (or the failed
#               operation, for failures the image reports), or accepted and
#               `merlin report` / `merlin compare X X` succeed on them
set -euo pipefail
merlin=$1 mode=$2
here=$(cd "$(dirname "$0")" && pwd)
craft=$here/craft.js
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-datapath.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
n=0

# reject NAME TARGET NEEDLE...: the stream is rejected (exit 1), the message
# names a line and contains every NEEDLE, nothing is written.
reject() {
  local name=$1 target=$2
  shift 2
  node "$craft" one "$name" "$target" "$work/$name.log"
  set +e
  "$merlin" run --from "$work/$name.log" --target "$target" \
    --out "$work/out-$name" --quiet >"$work/msg" 2>&1
  local rc=$?
  set -e
  cat "$work/msg"
  [ "$rc" -eq 1 ] || fail "$name: exit $rc, want 1"
  grep -qE 'line [0-9]+' "$work/msg" || fail "$name: message names no line"
  for needle in "$@"; do
    grep -qF -- "$needle" "$work/msg" || fail "$name: message lacks '$needle'"
  done
  [ ! -e "$work/out-$name" ] || fail "$name: something was written"
  n=$((n + 1))
}

# accept NAME TARGET: the stream gives results that merlin report reads.
accept() {
  local name=$1 target=$2
  node "$craft" one "$name" "$target" "$work/$name.log"
  "$merlin" run --from "$work/$name.log" --target "$target" \
    --out "$work/out-$name" --quiet >/dev/null ||
    fail "$name: rejected"
  "$merlin" report "$work/out-$name/latest" >/dev/null ||
    fail "$name: merlin report fails on what merlin run wrote"
  n=$((n + 1))
}

# json IN OUT EXPR: OUT is IN with EXPR applied to the parsed object j.
json() {
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1]));
    (new Function("j", process.argv[3]))(j);
    fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 2));
  ' "$1" "$2" "$3"
}

# refuse FILE NEEDLE...: merlin report of FILE's directory exits 1 naming
# every NEEDLE.
refuse() {
  local file=$1
  shift
  set +e
  "$merlin" report "$(dirname "$file")" >"$work/msg" 2>&1
  local rc=$?
  set -e
  cat "$work/msg"
  [ "$rc" -eq 1 ] || fail "report of $file: exit $rc, want 1"
  for needle in "$@"; do
    grep -qF -- "$needle" "$work/msg" || fail "$file: message lacks '$needle'"
  done
  n=$((n + 1))
}

case $mode in
counts)
  max=9223372036854775807
  reject stack-max qemu-m4 "field 'stack' of opend record" "(max $max)"
  reject heap-2p63 host "field 'heap' of opend record" "(max $max)"
  reject overhead-max qemu-m4 "field 'ticks' of overhead record"
  reject wf-stack-max host "field 'stack' of wfend record"
  accept allocs-int64-max qemu-m4
  d=$work/out-allocs-int64-max/latest
  grep -q "\"heap_allocs\": $max," "$d/results.json" ||
    fail "results.json lacks heap_allocs $max"
  grep -q ",492,0,$max," "$d/results.csv" || fail "results.csv disagrees"
  ;;
names)
  msg="is not a valid name (1 to 64 letters, digits"
  reject profile-dotdot qemu-m4 "line 1:" "profile=../../x $msg"
  reject profile-slash host "line 1:" "profile=a/b $msg"
  reject profile-newline qemu-m4 "line 1:" "profile=a?b $msg"
  reject profile-long qemu-m4 "line 1:" "profile=pppp" "$msg"
  reject profile-empty qemu-m4 "line 1:" "profile= $msg"
  reject target-slash qemu-m4 "line 1:" "target=../qemu-m4 $msg"
  accept valid qemu-m4
  ls "$work/out-valid/latest/console-qemu-m4-crafted.log" >/dev/null
  ;;
duplicate)
  reject dup-op qemu-m4 "line 3: op record for id 1 announces sha256 hash" \
    "a second time (first as id 0 on line 2)"
  ;;
stats)
  accept valid qemu-m4
  src=$work/out-valid/latest/results.json
  i=0
  check() { # EXPR NEEDLE...
    local expr=$1
    shift
    i=$((i + 1))
    mkdir -p "$work/s$i"
    json "$src" "$work/s$i/results.json" "$expr"
    refuse "$work/s$i/results.json" "$@"
  }
  at='runs[0].ops[1]: (ml-kem-512 keygen)'
  check 'j.runs[0].ops[1].median = -318.2' "$at \"median\": -318.19999"
  check 'j.runs[0].ops[1].min = j.runs[0].ops[1].max + 1' "$at \"min\":"
  check 'j.runs[0].ops[1].mean *= 1.001' "$at \"mean\":" "is not the mean of"
  check 'j.runs[0].ops[1].cv = 0.5' "$at \"cv\": 0.5 is not the cv"
  check 'j.runs[0].ops[1].samples[0] = -1' 'runs[0].ops[1]: "samples"[0]: -1 is negative'
  check 'j.runs[0].ops[1].repeat = {runs: 2, min_median: 1, max_median: 2, spread: 1}' \
    "$at \"repeat\""
  # An edited median of 0 (a real one comes from its samples: datapath zero).
  check 'j.runs[0].ops[1].median = 0' "$at \"median\": 0 is not the median"
  ;;
force)
  accept valid qemu-m4
  a=$work/out-valid/latest/results.json
  mkdir -p "$work/o3"
  json "$a" "$work/o3/results.json" \
    'const p = j.runs[0].provenance; p.cflags = p.cflags.replace("-O2", "-O3");'
  set +e
  "$merlin" compare "$a" "$work/o3" >"$work/msg" 2>&1
  rc=$?
  set -e
  cat "$work/msg"
  [ "$rc" -eq 2 ] || fail "compare across -O levels: exit $rc, want 2"
  grep -qF -- "--force pairs the runs by target and profile" "$work/msg" ||
    fail "no hint at --force"
  "$merlin" compare "$a" "$work/o3" --force >"$work/msg" 2>&1 ||
    fail "compare --force exited $?"
  cat "$work/msg"
  grep -qF "compare: --force: qemu-m4 (profile crafted): comparing the gcc -O2 build with the gcc -O3 build" \
    "$work/msg" || fail "--force does not say what it paired"
  grep -qF "3 operation(s)" "$work/msg" || fail "--force compared nothing"
  n=$((n + 2))
  ;;
zero)
  accept valid qemu-m4
  accept zero-median qemu-m4
  set +e
  "$merlin" compare "$work/out-zero-median/latest" "$work/out-valid/latest" \
    --md "$work/cmp.md" >"$work/msg" 2>&1
  rc=$?
  set -e
  cat "$work/msg"
  [ "$rc" -eq 1 ] || fail "a rise from a median of 0: exit $rc, want 1"
  grep -qE 'sha256 hash 64 B \(wolfcrypt\) +0 -> +2,992 +from 0 +REGRESSED' \
    "$work/msg" || fail "the change from 0 is not flagged"
  grep -qF '| 0 | 2,992 | from 0 | REGRESSED |' "$work/cmp.md" ||
    fail "--md does not flag the change from 0"
  ! grep -q '+0.00%' "$work/msg" || fail "a change from 0 shown as +0.00%"
  "$merlin" compare "$work/out-zero-median/latest" \
    "$work/out-zero-median/latest" >"$work/msg" || fail "0 -> 0 is a change"
  n=$((n + 1))
  ;;
crafted)
  count=${3:-200}
  node "$craft" many "${4:-20}" "$count" "$work/streams"
  acc=0 rej=0
  for f in "$work"/streams/*.log; do
    b=$(basename "$f" .log)
    target=qemu-m4 out=$work/out/$b
    opts=(--out "$out")
    case $b in *-host-*) target=host ;; esac
    # A runs=0 stream is read with --kat-only, which writes no results.
    case $b in *kat-only*) opts=(--kat-only) ;; esac
    set +e
    "$merlin" run --from "$f" --target "$target" --quiet "${opts[@]}" \
      >"$work/msg" 2>&1
    rc=$?
    set -e
    if [ "$rc" -ne 0 ]; then
      [ "$rc" -eq 1 ] || { cat "$work/msg"; fail "$b: exit $rc, want 1"; }
      # A line; or, for a well-formed stream, a failure the image reports
      # (a failed KAT, an error record, end status=fail: they name the
      # operation) or a begin record that is not the run asked for (another
      # target or profile, KAT-only or not, no operations; docs/cli.md).
      known=': KAT failed: |: no KAT result for |: error in |: target error: '
      known+='|reported end status=fail|the stream comes from target '
      known+="|the image was built for profile |the stream is KAT-only"
      known+="|--kat-only, but the stream has timed runs"
      known+="|the image announced no operations"
      grep -qE "line [0-9]+|$known" "$work/msg" ||
        { cat "$work/msg"; fail "$b: rejected without naming a line"; }
      if find "$out" -name 'results.*' 2>/dev/null | grep -q .; then
        fail "$b: rejected but wrote results"
      fi
      rej=$((rej + 1))
    elif [ "${opts[0]}" = --kat-only ]; then
      acc=$((acc + 1))
    else
      "$merlin" report "$out/latest" >"$work/msg" 2>&1 ||
        { cat "$work/msg"; fail "$b: accepted, but merlin report fails"; }
      "$merlin" compare "$out/latest" "$out/latest" >"$work/msg" 2>&1 ||
        { cat "$work/msg"; fail "$b: compare X X exits $?"; }
      acc=$((acc + 1))
    fi
    n=$((n + 1))
  done
  echo "crafted streams: $acc accepted and read back, $rej rejected at a line"
  [ "$acc" -gt 0 ] && [ "$rej" -gt 0 ] || fail "the mix is one-sided"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "$n passed, 0 failed"
