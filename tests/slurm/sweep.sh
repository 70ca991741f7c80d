#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/slurm-sweep under test (docs/scaling.md "Slurm"):
#   sweep.sh usage     option errors (exit 2, the value named), sbatch not
#                      found, a directory that is not empty or cannot be
#                      made (exit 1), --dry-run's scripts; the task script
#                      run as a node would: its shard, and a directory not
#                      the submitter's or another task count refused; no
#                      cluster
#   sweep.sh failed    on a one-node cluster (tests/slurm/cluster.sh), with
#                      tests/slurm/standin.sh as merlin: 3 shards whose
#                      shard 1 fails; the plan written once, first, each
#                      task run once with its K/3; the failure named with
#                      its log, the merge cancelled
#   sweep.sh qemu-m4 MERLIN
#                      the real thing on a one-node cluster: four small
#                      images (sha256 on Mbed TLS, gcc and clang x Os and O2:
#                      tests/integration/matrix.sh's, already built) run once
#                      on this machine and as a sweep of 3 shards merged;
#                      identical runs, operations and instruction counts
#                      (tests/slurm/same_counts.mjs)
# The cluster modes exit 77 (skipped) when not root: the daemons run as
# root.
set -euo pipefail
mode=${1:?usage: sweep.sh usage|failed|qemu-m4 MERLIN}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sweep=$root/scripts/slurm-sweep
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-slurm.XXXXXX")
cluster=$work/cluster
cleanup() {
  [ ! -d "$cluster" ] || "$here/cluster.sh" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"
n=0
ok() {
  n=$((n + 1))
  echo "ok: $*"
}

# expect STATUS TEXT COMMAND...: COMMAND exits STATUS and prints TEXT.
expect() {
  local want=$1 text=$2 rc=0 out
  shift 2
  out=$("$@" 2>&1) || rc=$?
  [ "$rc" = "$want" ] || fail "$* exited $rc, not $want: $out"
  grep -qF -- "$text" <<<"$out" || fail "$* did not say '$text': $out"
  local what="$*"
  ok "${what//$PATH/\$PATH} -> $rc, '$text'"
}

# start_cluster: a one-node cluster for this test, SLURM_CONF exported.
start_cluster() {
  local t0=$SECONDS
  "$here/cluster.sh" start "$cluster"
  eval "$("$here/cluster.sh" env "$cluster")"
  echo "cluster up in $((SECONDS - t0)) s"
}

usage() {
  local d=$work/d
  expect 0 "usage: scripts/slurm-sweep" "$sweep" --help
  expect 2 "--shards N is required" "$sweep" --dir "$d"
  for bad in 0 -1 x 2.5 "" 1234567; do
    expect 2 "--shards '$bad': a positive whole number" "$sweep" -n "$bad" -d "$d"
  done
  # merlin's own bound on N (--shard K/N): refused here, before anything
  expect 2 "--shards 10001: at most 10000" "$sweep" -n 10001 -d "$d" --dry-run
  expect 2 "--shards 999999: at most 10000" "$sweep" -n 999999 -d "$d"
  expect 2 "--dir DIR is required" "$sweep" -n 2
  expect 2 "'--shard' after --" "$sweep" -n 2 -d "$d" -- --target qemu-m4 --shard 1/2
  expect 2 "'--plan' after --" "$sweep" -n 2 -d "$d" -- --plan p.json
  expect 2 "'--out=x' after --" "$sweep" -n 2 -d "$d" -- --out=x
  expect 2 "--cpus-per-task '0'" "$sweep" -n 2 -d "$d" -c 0
  expect 2 "--partition 'a b': one word" "$sweep" -n 2 -d "$d" --partition "a b"
  expect 2 "a '%'" "$sweep" -n 2 -d "$work/50%" --dry-run
  expect 2 "unknown option '--target'" "$sweep" -n 2 -d "$d" --target qemu-m4
  # No sbatch on PATH (only bash's directory and the basic tools).
  mkdir -p "$work/bin"
  for c in bash cat ls mkdir od tr dirname sed; do ln -sf "$(command -v "$c")" "$work/bin/$c"; done
  expect 1 "sbatch not found in PATH" env PATH="$work/bin" "$sweep" -n 2 -d "$d" --merlin /bin/true
  [ ! -e "$d" ] || fail "a failed submission created $d"
  ok "nothing created"
  # Past the sbatch check: a stand-in sbatch that must not be reached.
  printf '#!/bin/sh\necho "sbatch reached" >&2\nexit 1\n' >"$work/bin/sbatch"
  chmod +x "$work/bin/sbatch"
  expect 1 "--merlin $work/none: not an executable file" \
    env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$d" --merlin "$work/none"
  mkdir -p "$work/full" && touch "$work/full/x"
  expect 1 "--dir $work/full: not empty" env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$work/full" --merlin /bin/true
  expect 1 "--dir $work/full/x/y: cannot create it" \
    env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$work/full/x/y" --merlin /bin/true
  # Run options merlin refuses: stopped at the plan, before sbatch, and the
  # directory left empty.
  export STANDIN_LOG=$work/plan.log
  expect 2 "planning failed" env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$d" \
    --merlin "$here/standin.sh" -- --bad
  [ -z "$(ls -A "$d")" ] || fail "a failed plan left files in $d: $(ls -A "$d")"
  ok "a plan merlin refuses: nothing submitted, nothing left"
  expect 1 "failed (exit 1): sbatch reached" env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$d" \
    --merlin "$here/standin.sh"
  # a failed sbatch submitted nothing: the directory is empty again, and
  # the same --dir is taken again (reaching sbatch, not "not empty")
  [ -z "$(ls -A "$d")" ] || fail "a failed sbatch left files in $d: $(ls -A "$d")"
  expect 1 "is empty again" env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$d" \
    --merlin "$here/standin.sh"
  # a merge job sbatch refuses: the array job is cancelled, the directory
  # emptied
  printf '#!/bin/sh\nfor a; do case $a in *merge.sbatch) echo "no merge" >&2; exit 1 ;; esac; done\necho 4242\n' \
    >"$work/bin/sbatch"
  printf '#!/bin/sh\necho "$@" >>"%s"\n' "$work/scancel.log" >"$work/bin/scancel"
  chmod +x "$work/bin/scancel"
  expect 1 "array job 4242 cancelled" env PATH="$work/bin:$PATH" "$sweep" -n 2 -d "$d" \
    --merlin "$here/standin.sh"
  grep -qx 4242 "$work/scancel.log" || fail "the array job was not cancelled"
  [ -z "$(ls -A "$d")" ] || fail "a failed merge submission left files in $d: $(ls -A "$d")"
  ok "a failed sbatch leaves the directory empty, to be given again"
  # --dry-run: the plan's command, both scripts and both commands, the
  # options where they go, nothing made.
  local out
  out=$("$sweep" --dry-run -n 3 -d "$work/dry" -o "$work/m" --merlin /opt/merlin -p part -t 10:00 -c 2 \
    --sbatch-opt=--mem=2G -- --target qemu-m4 --runs 2 --impl "$work/a b" --stall 30 --quiet)
  [ ! -e "$work/dry" ] || fail "--dry-run created $work/dry"
  for want in '#SBATCH --array=0-2' '#SBATCH --partition=part' '#SBATCH --time=10:00' \
    '#SBATCH --cpus-per-task=2' '#SBATCH --mem=2G' "#SBATCH --output=\"$work/dry/logs/shard-%a.log\"" \
    "/opt/merlin run --target qemu-m4 --runs 2 --impl $(printf %q "$work/a b") --stall 30 --quiet --plan-only $work/dry/plan.json --shard 0/3" \
    "/opt/merlin run --plan \"\$dir/plan.json\" --shard \"\$k/\$n\" --out \"\$dir/shard-\$k\" --jobs 2 --stall 30 --quiet" \
    "for ((k = 0; k < 3; k++)); do shards+=(\"\$dir/shard-\$k\"); done" \
    "/opt/merlin merge \"\${shards[@]}\" --out $work/m" \
    "sbatch --parsable --export=ALL,SWEEP_TOKEN=TOKEN $work/dry/slurm/shard.sbatch" \
    "--dependency=afterok:ARRAY_JOB_ID --kill-on-invalid-dep=yes $work/dry/slurm/merge.sbatch"; do
    grep -qF -- "$want" <<<"$out" || fail "--dry-run printed no '$want':
$out"
  done
  ok "--dry-run: scripts and commands"
  # -j in the run options wins over the default --jobs.
  out=$("$sweep" --dry-run -n 2 -d "$d" -- -j 3)
  # shellcheck disable=SC2016 # the script's own $dir and $k
  grep -q -- '--out "$dir/shard-$k" -j 3$' <<<"$out" ||
    fail "-j 3 in the run options was not the only --jobs"
  ok "-j of the run options"

  # The task script itself (as a node runs it): merlin run with its K/N
  # when the directory holds the submitter's token; on a node where the
  # path is another directory (no token, or another one), or with another
  # task count, a message and exit 1, merlin not run.
  local t=$work/t script
  mkdir -p "$t/status"
  echo "--runs 2" >"$t/plan.json"
  out=$("$sweep" --dry-run -n 2 -d "$t" --merlin "$here/standin.sh" -- --runs 2)
  script=$(sed -n '/^# .*\/slurm\/shard.sbatch$/,/^$/p' <<<"$out" | sed 1d)
  echo right >"$t/.slurm-sweep"
  export STANDIN_LOG=$work/task.log
  task() { # task TOKEN COUNT
    env SWEEP_TOKEN="$1" SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_COUNT="$2" \
      bash -c "$script"
  }
  expect 0 "shard 1/2 on" task right 2
  if ! grep -q '^run 1/2 end ' "$STANDIN_LOG" || ! grep -qx '1/2 --jobs 1 | --runs 2' "$t/shard-1/shard.txt" ||
    [ "$(cat "$t/status/shard-1.rc")" != 0 ]; then
    fail "the task did not run shard 1/2: $(cat "$STANDIN_LOG")"
  fi
  rm -f "$STANDIN_LOG"
  expect 1 "is not the directory the sweep was submitted with" task wrong 2
  rm "$t/.slurm-sweep"
  expect 1 "is not the directory the sweep was submitted with" task right 2
  echo right >"$t/.slurm-sweep"
  expect 1 "SLURM_ARRAY_TASK_COUNT=3, the sweep has 2 shards" task right 3
  [ ! -e "$STANDIN_LOG" ] || fail "a refused task ran merlin: $(cat "$STANDIN_LOG")"
  ok "a directory the tasks do not share, or another task count: refused"
}

# A sweep of 3 stand-in shards whose shard 1 fails: the plan written once,
# first; every task run once with its K/3; the failure named with its
# state, exit status and log; the merge cancelled, never run.
failed() {
  start_cluster
  local log=$work/standin.log out rc=0 k
  export STANDIN_LOG=$log
  out=$(STANDIN_FAIL=1 "$sweep" -n 3 -d "$work/f" --merlin "$here/standin.sh" --wait -- --runs 2 2>&1) ||
    rc=$?
  echo "$out"
  [ $rc = 1 ] || fail "a failed shard: exit $rc, not 1"
  for want in "shard 1/3 (job " "FAILED, exit 1: log $work/f/logs/shard-1.log" "shard 1/3 fails as asked" \
    "not run (CANCELLED): a shard failed"; do
    grep -qF -- "$want" <<<"$out" || fail "no '$want' in the output"
  done
  ok "a failed shard: named, its log shown"
  if [ "$(head -n 1 "$log" | cut -d' ' -f1-2)" != "plan 0/3" ] || [ "$(grep -c '^plan ' "$log")" != 1 ]; then
    fail "the plan was not written once, first: $(cat "$log")"
  fi
  for k in 0 1 2; do
    [ "$(grep -c "^run $k/3 start " "$log")" = 1 ] || fail "shard $k/3 did not start once: $(cat "$log")"
  done
  [ "$(grep -c '^run .* start ' "$log")" = 3 ] || fail "other shards ran: $(cat "$log")"
  for k in 0 2; do
    grep -qx "$k/3 --jobs 1 | --runs 2" "$work/f/shard-$k/shard.txt" ||
      fail "shard $k did not run its slice of the plan: $(cat "$work/f/shard-$k/shard.txt")"
  done
  ok "the plan written once, first; each task once with its K/3 and the plan"
  ! grep -q '^merge' "$log" || fail "the merge ran after a failed shard"
  ok "the merge cancelled, never run"
}

# The images of tests/integration/matrix.sh (the profile's name and text
# are its), run once here and as 3 shards through Slurm.
real() {
  local merlin=$1 t0
  cat >"$work/matrix-it.profile" <<'EOF'
# merlin run --cc/--opt integration test (tests/integration/matrix.sh)
description = matrix test: sha256 on Mbed TLS
sha256 = mbedtls
EOF
  # shellcheck disable=SC2054 # comma lists of merlin run
  local opts=(--target qemu-m4 --profile "$work/matrix-it.profile" --cc gcc,clang --opt Os,O2
    --runs 2 --warmup 0 --cycle-model off --quiet)
  t0=$SECONDS
  "$merlin" run "${opts[@]}" -j2 --out "$work/one"
  echo "one machine: $((SECONDS - t0)) s"
  start_cluster
  t0=$SECONDS
  "$sweep" -n 3 -d "$work/s" --merlin "$merlin" --wait -- "${opts[@]}"
  echo "sweep of 3 shards: $((SECONDS - t0)) s"
  local k
  for k in 0 1 2; do
    grep -q "shard $k/3 on " "$work/s/logs/shard-$k.log" || fail "no log of shard $k"
    node -e 'const p = require(process.argv[1]).plan;
      if (p.shard !== +process.argv[2] || p.shards !== 3) throw new Error(JSON.stringify(p));' \
      "$work/s/shard-$k/latest/results.json" "$k" || fail "shard $k does not record slice $k of 3"
  done
  local merged=$work/s/merged/results.json
  [ -f "$merged" ] || merged=$work/s/merged/latest/results.json
  node "$here/same_counts.mjs" "$work/one/latest/results.json" "$merged"
  ok "3 shards merged: the same instruction counts as one machine"
}

root_or_skip() {
  [ "$(id -u)" = 0 ] || {
    echo "SKIP: the one-node cluster's daemons need root"
    exit 77
  }
}

case $mode in
usage) usage ;;
failed)
  root_or_skip
  failed
  ;;
qemu-m4)
  root_or_skip
  real "${2:?sweep.sh qemu-m4 MERLIN}"
  ;;
*) fail "unknown mode $mode" ;;
esac
echo "ok: $n checks"
