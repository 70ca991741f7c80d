#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A stand-in for merlin's plan, slices and merge, for tests/slurm/sweep.sh
# to drive scripts/slurm-sweep through Slurm without building anything:
#   standin.sh run OPTION... --plan-only FILE --shard 0/N
#                                   writes FILE: the options; a run option
#                                   --bad is refused (exit 2)
#   standin.sh run --plan FILE --shard K/N --out DIR [OPTION...]
#                                   writes DIR/shard.txt: K/N, the options
#                                   added, and FILE's
#   standin.sh merge DIR... --out OUT
#                                   writes OUT/merged.txt: the shard.txt of
#                                   each DIR, in order
# Each call appends "start"/"end" lines (what, host, time) to $STANDIN_LOG.
# STANDIN_FAIL=K makes shard K fail (exit 1) after its start line;
# STANDIN_SLEEP=S makes each shard take S seconds (default 0.2).
set -euo pipefail
log=${STANDIN_LOG:?STANDIN_LOG names the stand-in\'s log}
note() { echo "$* $(hostname) $(date +%s.%N)" >>"$log"; }
cmd=$1
shift
case $cmd in
run)
  plan='' plan_only='' shard='' out='' rest=()
  while [ $# -gt 0 ]; do
    case $1 in
    --plan) plan=$2 && shift ;;
    --plan-only) plan_only=$2 && shift ;;
    --shard) shard=$2 && shift ;;
    --out) out=$2 && shift ;;
    --bad)
      echo "standin: unknown option --bad" >&2
      exit 2
      ;;
    *) rest+=("$1") ;;
    esac
    shift
  done
  if [ -n "$plan_only" ]; then
    note "plan $shard"
    echo "${rest[*]}" >"$plan_only"
    exit 0
  fi
  if [ -z "$plan" ] || [ -z "$shard" ] || [ -z "$out" ]; then
    echo "standin: run --plan FILE --shard K/N --out DIR expected" >&2
    exit 2
  fi
  note "run $shard start"
  if [ "${shard%/*}" = "${STANDIN_FAIL:-}" ]; then
    echo "standin: shard $shard fails as asked (STANDIN_FAIL)" >&2
    exit 1
  fi
  mkdir -p "$out"
  echo "$shard ${rest[*]} | $(cat "$plan")" >"$out/shard.txt"
  sleep "${STANDIN_SLEEP:-0.2}"
  note "run $shard end"
  ;;
merge)
  note "merge start"
  dirs=()
  while [ $# -gt 0 ] && [ "$1" != --out ]; do
    dirs+=("$1")
    shift
  done
  if [ "${1:-}" != --out ] || [ $# -ne 2 ]; then
    echo "standin: merge DIR... --out OUT expected" >&2
    exit 2
  fi
  out=$2
  mkdir -p "$out"
  for d in "${dirs[@]}"; do
    cat "$d/shard.txt" || {
      echo "standin: $d has no shard.txt" >&2
      exit 1
    }
  done >"$out/merged.txt"
  note "merge end"
  ;;
*)
  echo "standin: unknown command $cmd" >&2
  exit 2
  ;;
esac
