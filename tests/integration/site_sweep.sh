#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/site-sweep (make site; docs/benchmarks.md) without sweeping:
# --help, each usage error (exit 2, naming the value), the failures named
# before anything runs (exit 1), and --dry-run's plans and commands, which
# build, run and write nothing. Then docs/benchmarks.md's check mode
# refusing a page whose figure was changed. A few seconds.
#   site_sweep.sh MERLIN WORKDIR
set -euo pipefail
merlin=$1 work=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
sweep=$root/scripts/site-sweep
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
# site-sweep names a path inside the tree relative to its root.
shown=$work
[[ $work != "$root"/* ]] || shown=${work#"$root"/}
shown_merlin=$(realpath -s "$merlin")
[[ $shown_merlin != "$root"/* ]] || shown_merlin=${shown_merlin#"$root"/}
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# expect STATUS TEXT ARGS...: site-sweep ARGS exits STATUS and says TEXT.
expect() {
  local want=$1 text=$2 rc=0
  shift 2
  "$sweep" --merlin "$merlin" --out "$work/out" "$@" >"$work/log" 2>&1 || rc=$?
  if [[ $rc != "$want" ]]; then
    fail "site-sweep $* exited $rc, expected $want:"
    sed 's/^/  /' "$work/log"
  elif ! grep -qF -- "$text" "$work/log"; then
    fail "site-sweep $* did not say '$text':"
    sed 's/^/  /' "$work/log"
  fi
}

expect 0 "usage: scripts/site-sweep" --help
expect 0 "--dry-run" -h
expect 2 "unknown option '--bogus'" --bogus
expect 2 "--runs needs a value" --runs
expect 2 "--runs '0': a whole number from 1 to 100000" --runs 0
expect 2 "--warmup 'x': a whole number" --warmup x
expect 2 "--jobs '65'" --jobs 65
expect 2 "--shards '0'" --shards 0
expect 2 "--stall '0'" --stall 0
expect 2 "--engine 'pbs': local, parallel or slurm" --engine pbs
expect 2 "--cores: 'qemu-m9' is not a QEMU target" --cores qemu-m4,qemu-m9
expect 2 "--cores: 'host' is not a QEMU target" --cores host
expect 2 "--cores 'qemu-m4,': an empty name" --cores qemu-m4,
expect 2 "--schemes 'ml-kem,,falcon': an empty name" --schemes ml-kem,,falcon
expect 2 "--schemes: 'kyber*' matches no scheme" --schemes ml-kem,'kyber*'
expect 2 "--schemes: 'ml-kem' given twice" --schemes ml-kem,ml-dsa,ml-kem
mkdir -p "$work/empty-tree"
expect 1 "--tree '$shown/empty-tree': no crypto_kem/ or crypto_sign/" --tree "$work/empty-tree"
rc=0
"$sweep" --merlin "$work/no-merlin" --dry-run >"$work/log" 2>&1 || rc=$?
[[ $rc == 1 ]] && grep -qF "merlin '$shown/no-merlin' is not an executable" "$work/log" ||
  fail "a missing merlin: exit $rc, $(cat "$work/log")"
[[ ! -e $work/out ]] || fail "a refused sweep made $work/out"

# --dry-run: each group's plan (merlin's table) and commands; nothing made.
expect 0 "dry run: nothing built, run or written" --dry-run --schemes ml-kem,falcon \
  --cores qemu-m4,qemu-m0plus --shards 2 --runs 3 --warmup 0 -j 1
log=$work/log
for want in "group ml-kem: ml-kem-1024 ml-kem-512 ml-kem-768" \
  "group falcon: falcon-1024 falcon-512 falcon-padded-1024 falcon-padded-512" \
  "3 implementation folder(s), 32 skipped" "4 implementation folder(s), 31 skipped" \
  "0  qemu-m4        pqm4-checkout" "1  qemu-m0plus    pqm4-checkout" \
  "--runs 3 --warmup 0 --plan-only $shown/out/ml-kem/plan.json" \
  "run --plan $shown/out/falcon/plan.json --shard 1/2 --out $shown/out/falcon/shard-1 -j 1" \
  "merge $shown/out/ml-kem/shard-0 $shown/out/ml-kem/shard-1 --out $shown/out/ml-kem/merged" \
  "db add $shown/out/results.db $shown/out/ml-kem/merged $shown/out/falcon/merged" \
  "site $shown/out/results.db --out $shown/out/site"; do
  grep -qF -- "$want" "$log" || fail "--dry-run did not print '$want'"
done
plan=$(grep -F -- "--plan-only $shown/out/ml-kem/plan.json" "$log" || true)
[[ $plan == *"--impl-skip ml-dsa-44 "* && $plan == *"--impl-skip falcon-512 "* ]] ||
  fail "the ml-kem group's plan keeps the other schemes: $plan"
[[ $plan != *"--impl-skip ml-kem-"* ]] || fail "the ml-kem group's plan skips one of its sets: $plan"
[[ ! -e $work/out ]] || fail "--dry-run made $work/out"
((fails)) && grep -q . "$log" && sed 's/^/  /' "$log"

# --engine slurm: scripts/slurm-sweep plans, runs and merges each group.
expect 0 "scripts/slurm-sweep --shards 3 --dir $shown/out/ml-kem-512/slurm --out $shown/out/ml-kem-512/merged --wait --merlin $shown_merlin --partition batch --time 01:00:00 -- --target qemu-m4 " \
  --dry-run --engine slurm --shards 3 --schemes ml-kem-512 --cores qemu-m4 \
  --slurm-opts "--partition batch --time 01:00:00"
grep -q " merge " "$work/log" && fail "--engine slurm: site-sweep merges what slurm-sweep merged"

# docs/benchmarks.md's check refuses a page whose figure differs.
cp "$root/docs/benchmarks.md" "$work/benchmarks.md"
node "$root/scripts/benchmarks-doc.mjs" check "$work/benchmarks.md" >/dev/null ||
  fail "benchmarks-doc.mjs check of an unchanged copy"
sed -i '0,/AVG: [0-9]/s/AVG: \([0-9]\)/AVG: 9\1/' "$work/benchmarks.md"
rc=0
node "$root/scripts/benchmarks-doc.mjs" check "$work/benchmarks.md" >"$work/log" 2>&1 || rc=$?
[[ $rc == 1 ]] && grep -q "differ from what scripts/benchmarks-doc.mjs renders" "$work/log" ||
  fail "benchmarks-doc.mjs check of a changed figure: exit $rc, $(cat "$work/log")"

((fails == 0)) || exit 1
echo "ok: site-sweep's usage errors, --dry-run, and benchmarks-doc.mjs check"
