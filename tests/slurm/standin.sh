#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A stand-in for merlin's `run --shard` and `merge`, for tests/slurm/sweep.sh
# to drive scripts/slurm-sweep through Slurm without building anything:
#   standin.sh run --shard K/N --out DIR [OPTION...]   writes DIR/shard.txt
#   standin.sh merge DIR... --out OUT                 writes OUT/merged.txt
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
  if [ "$1" != --shard ] || [ "$3" != --out ]; then
    echo "standin: run --shard K/N --out DIR expected, got: $*" >&2
    exit 2
  fi
  shard=$2 out=$4
  shift 4
  note "run $shard start"
  if [ "${shard%/*}" = "${STANDIN_FAIL:-}" ]; then
    echo "standin: shard $shard fails as asked (STANDIN_FAIL)" >&2
    exit 1
  fi
  mkdir -p "$out"
  echo "$shard $*" >"$out/shard.txt"
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
