#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Failure paths of `merlin run` (issue: robustness): each ends with one clear
# message, a non-zero exit, and no results written.
#   robust.sh MERLIN usage        bad user input: exit 2, message, valid choices
#   robust.sh MERLIN qemu-fails   a QEMU that cannot start
#   robust.sh MERLIN no-toolchain a broken Arm compiler
#   robust.sh MERLIN kill-loop    SIGKILL at random moments: never a partial
#                                 results directory, latest always complete
set -euo pipefail
merlin=$1 mode=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-robust.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
n=0

# expect RC NEEDLE CMD...: CMD exits RC and says NEEDLE; nothing in $work/out.
expect() {
  local want=$1 needle=$2
  shift 2
  set +e
  "$@" >"$work/log" 2>&1
  local rc=$?
  set -e
  cat "$work/log"
  [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, want $want"
  grep -qF -- "$needle" "$work/log" || fail "'$*': message lacks '$needle'"
  if find "$work/out" -name results.json 2>/dev/null | grep -q .; then
    fail "'$*' wrote results"
  fi
  n=$((n + 1))
}

case $mode in
usage)
  out=(--out "$work/out")
  expect 2 "unknown target 'm4'; valid: host, host-insn, qemu-m0plus" \
    "$merlin" run --target m4 "${out[@]}"
  expect 2 "--runs" "$merlin" run --target host --runs 0 "${out[@]}"
  expect 2 "--runs" "$merlin" run --target host --runs -3 "${out[@]}"
  expect 2 "--runs" "$merlin" run --target host --runs 99999999999 "${out[@]}"
  expect 2 "--warmup" "$merlin" run --target host --warmup x "${out[@]}"
  expect 2 "--timeout" "$merlin" run --target host --timeout 0 "${out[@]}"
  expect 2 "unknown profile 'nope'" \
    "$merlin" run --target host --profile nope "${out[@]}"
  printf 'sha256 = wolfcrypt\nml-kem-512 = mbedtls\n' >"$work/bad.profile"
  expect 2 "bad.profile:2" \
    "$merlin" run --target host --profile "$work/bad.profile" "${out[@]}"
  printf 'wolfcrypt.variant = fast\nsha256 = wolfcrypt\n' >"$work/opt.profile"
  expect 2 "opt.profile:1" \
    "$merlin" run --target host --profile "$work/opt.profile" "${out[@]}"
  expect 2 "unknown option '--bogus'" "$merlin" run --target host --bogus
  expect 2 "--inject-fault" \
    "$merlin" run --target host --inject-fault meltdown "${out[@]}"
  # An output directory that cannot be written: the run fails before the
  # results are moved into place, and says where.
  mkdir -p "$work/ro" && chmod 0555 "$work/ro"
  if [ "$(id -u)" != 0 ]; then
    expect 1 "$work/ro" "$merlin" run --target host --runs 1 --warmup 0 \
      --out "$work/ro/out" --quiet
  fi
  # Did you mean: the nearest valid name of a typo (issue 32).
  expect 2 "unknown target 'qemu-m5' (did you mean qemu-m55?)" \
    "$merlin" run --target qemu-m5 "${out[@]}"
  expect 2 "unknown profile 'defualt' (did you mean default?)" \
    "$merlin" run --target host --profile defualt "${out[@]}"
  expect 2 "unknown algorithm 'ml-kem-51'; did you mean ml-kem-512?" \
    "$merlin" run --target host --alg ml-kem-51 --backend wolfcrypt "${out[@]}"
  expect 2 "unknown backend 'wolfcrpyt'; did you mean wolfcrypt?" \
    "$merlin" run --target host --alg sha256 --backend wolfcrpyt "${out[@]}"
  # --alg/--backend without a profile file.
  expect 2 "no backend of --backend offers ml-dsa-44; those that do: wolfcrypt" \
    "$merlin" run --target host --alg ml-dsa-44 --backend mbedtls "${out[@]}"
  expect 2 "needs --backend" "$merlin" run --target host --alg sha256 "${out[@]}"
  expect 2 "goes with --alg" "$merlin" run --target host --backend wolfcrypt "${out[@]}"
  expect 2 "--alg makes the profile" \
    "$merlin" run --target host --alg sha256 --backend wolfcrypt --profile default "${out[@]}"
  # --help in groups, the test hooks behind merlin help --all.
  "$merlin" run --help >"$work/help"
  grep -q '^what to run:' "$work/help" && ! grep -q -- '--kat-corrupt' "$work/help" ||
    fail "run --help: no groups, or the test hooks shown"
  "$merlin" help --all run | grep -q -- '--kat-corrupt' || fail "help --all run lacks the test hooks"
  ;;
qemu-fails)
  # A qemu-system-arm that exits at once with an error of its own.
  mkdir -p "$work/bin"
  printf '#!/bin/sh\necho "qemu-system-arm: -M mps2-an386: machine not found" >&2\nexit 1\n' \
    >"$work/bin/qemu-system-arm"
  chmod +x "$work/bin/qemu-system-arm"
  PATH="$work/bin:$PATH" expect 1 "image exited with status 1" \
    "$merlin" run --target qemu-m4 --runs 1 --warmup 0 --out "$work/out"
  grep -q "machine not found" "$work/log" || fail "QEMU's own error not shown"
  ;;
no-toolchain)
  # An Arm compiler that cannot compile: the build fails, the log says so.
  mkdir -p "$work/bin"
  printf '#!/bin/sh\necho "arm-none-eabi-gcc: fatal error: broken on purpose" >&2\nexit 1\n' \
    >"$work/bin/arm-none-eabi-gcc"
  chmod +x "$work/bin/arm-none-eabi-gcc"
  printf 'description = robust\nsha256 = wolfcrypt\n' >"$work/tc.profile"
  PATH="$work/bin:$PATH" expect 1 "build failed" \
    "$merlin" run --target qemu-m4 --profile "$work/tc.profile" --out "$work/out"
  grep -q "broken on purpose\|arm-none-eabi-gcc" "$work/log" ||
    fail "the compiler's failure is not shown"
  rm -rf "$(dirname "$merlin")/../img/qemu-m4-tc"
  ;;
kill-loop)
  printf 'description = robust\nsha256 = wolfcrypt\nml-kem-512 = pqclean\n' \
    >"$work/k.profile"
  run=("$merlin" run --target host --profile "$work/k.profile" --runs 5
    --warmup 0 --out "$work/out" --quiet)
  "${run[@]}" >/dev/null # builds the image; one complete result
  good=$(readlink "$work/out/latest")
  for i in $(seq 1 20); do
    "${run[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    # Every visible results directory is complete, and latest points at one.
    for d in "$work"/out/2*; do
      for f in results.json results.csv report.md; do
        [ -s "$d/$f" ] || fail "kill $i: $d lacks $f"
      done
      node -e 'JSON.parse(require("fs").readFileSync(process.argv[1]))' \
        "$d/results.json" || fail "kill $i: $d/results.json is not whole"
    done
    target=$(readlink "$work/out/latest")
    [ -s "$work/out/$target/results.json" ] ||
      fail "kill $i: latest -> $target is not a complete run"
    n=$((n + 1))
  done
  [ -s "$work/out/$good/results.json" ] || fail "the first good run was lost"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "$n passed, 0 failed"
