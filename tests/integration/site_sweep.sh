#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/site-sweep (make site; docs/benchmarks.md) without sweeping:
# --help, each usage error (exit 2, naming the value), the failures named
# before anything runs (exit 1), and --dry-run's plans and commands, which
# build, run and write nothing. Then docs/benchmarks.md's check mode
# refusing a page whose figure was changed. A few seconds.
#   site_sweep.sh MERLIN WORKDIR
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
merlin=$1 work=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
expect_log=$work/log
# site-sweep names a path inside the tree relative to its root.
shown() {
  local p
  p=$(realpath -s "$1")
  if [[ $p == "$root"/* ]]; then echo "${p#"$root"/}"; else echo "$p"; fi
}
out=$(shown "$work/out")
sweep=("$root/scripts/site-sweep" --merlin "$merlin" --out "$work/out")

expect 0 "usage: scripts/site-sweep" "${sweep[@]}" --help
expect 0 "--dry-run" "${sweep[@]}" -h
expect 2 "unknown option '--bogus'" "${sweep[@]}" --bogus
expect 2 "--runs needs a value" "${sweep[@]}" --runs
expect 2 "--runs '0': a whole number from 1 to 100000" "${sweep[@]}" --runs 0
expect 2 "--warmup 'x': a whole number" "${sweep[@]}" --warmup x
expect 2 "--jobs '65'" "${sweep[@]}" --jobs 65
expect 2 "--shards '0'" "${sweep[@]}" --shards 0
expect 2 "--stall '0'" "${sweep[@]}" --stall 0
expect 2 "--engine 'pbs': local, parallel or slurm" "${sweep[@]}" --engine pbs
expect 2 "--cores: 'qemu-m9' is not a QEMU target" "${sweep[@]}" --cores qemu-m4,qemu-m9
expect 2 "--cores: 'host' is not a QEMU target" "${sweep[@]}" --cores host
expect 2 "--cores 'qemu-m4,': an empty name" "${sweep[@]}" --cores qemu-m4,
expect 2 "--schemes 'ml-kem,,falcon': an empty name" "${sweep[@]}" --schemes ml-kem,,falcon
expect 2 "--schemes: 'kyber*' matches no scheme" "${sweep[@]}" --schemes ml-kem,'kyber*'
expect 2 "--schemes: 'ml-kem' given twice" "${sweep[@]}" --schemes ml-kem,ml-dsa,ml-kem
mkdir -p "$work/empty-tree"
expect 1 "--tree '$(shown "$work/empty-tree")': no crypto_kem/ or crypto_sign/" \
  "${sweep[@]}" --tree "$work/empty-tree"
expect 1 "merlin '$(shown "$work/no-merlin")' is not an executable" \
  "$root/scripts/site-sweep" --merlin "$work/no-merlin" --dry-run
[[ ! -e $work/out ]] || fail "a refused sweep made $work/out"

# --dry-run: each group's plan (merlin's table) and commands; nothing made.
expect 0 "dry run: nothing built, run or written" "${sweep[@]}" --dry-run --schemes ml-kem,falcon \
  --cores qemu-m4,qemu-m0plus --shards 2 --runs 3 --warmup 0 -j 1
for want in "group ml-kem: ml-kem-1024 ml-kem-512 ml-kem-768" \
  "group falcon: falcon-1024 falcon-512 falcon-padded-1024 falcon-padded-512" \
  "3 implementation folder(s), 32 skipped" "4 implementation folder(s), 31 skipped" \
  "0  qemu-m4        pqm4-checkout" "1  qemu-m0plus    pqm4-checkout" \
  "--runs 3 --warmup 0 --plan-only $out/ml-kem/plan.json" \
  "run --plan $out/falcon/plan.json --shard 1/2 --out $out/falcon/shard-1 -j 1" \
  "merge $out/ml-kem/shard-0 $out/ml-kem/shard-1 --out $out/ml-kem/merged" \
  "db add $out/results.db $out/ml-kem/merged" "db add $out/results.db $out/falcon/merged" \
  "site $out/results.db --out $out/site"; do
  grep -qF -- "$want" "$expect_log" || { cat "$expect_log"; fail "--dry-run did not print '$want'"; }
done
plan=$(grep -F -- "--plan-only $out/ml-kem/plan.json" "$expect_log" || true)
[[ $plan == *"--impl-skip ml-dsa-44 "* && $plan == *"--impl-skip falcon-512 "* ]] ||
  fail "the ml-kem group's plan keeps the other schemes: $plan"
[[ $plan != *"--impl-skip ml-kem-"* ]] || fail "the ml-kem group's plan skips one of its sets: $plan"
[[ ! -e $work/out ]] || fail "--dry-run made $work/out"

# --engine slurm: scripts/slurm-sweep plans, runs and merges each group.
expect 0 "scripts/slurm-sweep --shards 3 --dir $out/ml-kem-512/slurm --out $out/ml-kem-512/merged --wait --merlin $(shown "$merlin") --partition batch --time 01:00:00 -- --target qemu-m4 " \
  "${sweep[@]}" --dry-run --engine slurm --shards 3 --schemes ml-kem-512 --cores qemu-m4 \
  --slurm-opts "--partition batch --time 01:00:00"
lacks " merge "

# docs/benchmarks.md's check refuses a page whose figure differs.
cp "$root/docs/benchmarks.md" "$work/benchmarks.md"
expect 0 "ok: " node "$root/scripts/benchmarks-doc.mjs" check "$work/benchmarks.md"
sed -i '0,/AVG: [0-9]/s/AVG: \([0-9]\)/AVG: 9\1/' "$work/benchmarks.md"
expect 1 "differ from what scripts/benchmarks-doc.mjs renders" \
  node "$root/scripts/benchmarks-doc.mjs" check "$work/benchmarks.md"
finish
