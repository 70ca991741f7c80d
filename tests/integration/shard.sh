#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A run as a plan of jobs, in slices on several machines (docs/scaling.md):
#   shard.sh MERLIN ART same    one run of a four-job plan (qemu-m4, the
#                               one-algorithm profile of matrix.sh, gcc and
#                               clang at -Os and -O2: its images) and the
#                               same as 3 shards merged: identical samples,
#                               every job once and in plan order, the
#                               reports and console logs; a host job is
#                               dealt into slice 0; the shards kept in ART
#   shard.sh MERLIN ART refuse  merge refuses a missing shard, a shard given
#                               twice, shards of two plans, of two source
#                               revisions, a doubled job, and writes
#                               nothing; --shard's usage errors
#   shard.sh MERLIN ART parts   heavy folders apart: --plan-only with
#                               --costs (the report-data run, two of its
#                               backends renamed as two toy folders) puts
#                               the folders in a part of their own
#                               (default.part1: their jobs, their folders
#                               only); a slice of that plan made again from
#                               the file matches it; on the host, each
#                               folder a part of its own, run and merged
#   shard.sh MERLIN ART plan    --plan-only writes the plan (--costs deals
#                               the heaviest job alone), --plan FILE --shard
#                               runs a slice of it, and a plan that no longer
#                               matches the tree (a changed profile) or
#                               given with other options is refused
set -euo pipefail
merlin=$1 art=$2 mode=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-shard.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
n=0
root=$(cd "$(dirname "$0")/../.." && pwd)
# The profile of tests/integration/matrix.sh, whose images it builds.
profile=$work/matrix-it.profile
cat >"$profile" <<'EOF'
# merlin run --cc/--opt integration test (tests/integration/matrix.sh)
description = matrix test: sha256 on Mbed TLS
sha256 = mbedtls
EOF
run=(--target qemu-m4 --profile "$profile" --cc gcc,clang --opt Os,O2
  --runs 3 --warmup 0 --quiet)

# expect RC NEEDLE CMD...: CMD exits RC and says NEEDLE.
expect() {
  local want=$1 needle=$2
  shift 2
  set +e
  "$@" >"$work/log" 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq "$want" ] || { cat "$work/log"; fail "'$*' exited $rc, want $want"; }
  grep -qF -- "$needle" "$work/log" || { cat "$work/log"; fail "'$*': no '$needle'"; }
  n=$((n + 1))
}

case $mode in
same)
  "$merlin" run "${run[@]}" --out "$work/one" >/dev/null
  rm -rf "$art/shards"
  for k in 0 1 2; do
    "$merlin" run "${run[@]}" --shard "$k/3" --out "$art/shards/S$k" >/dev/null
  done
  "$merlin" merge "$art/shards/S0" "$art/shards/S1" "$art/shards/S2" \
    --out "$work/merged" >/dev/null
  node -e '
    const [one, m] = process.argv.slice(1).map((f) => require(f));
    const fail = (w) => { console.log("FAIL: " + w); process.exit(1); };
    if (m.runs.length !== one.runs.length) fail("merged has " + m.runs.length + " runs");
    if (m.plan.hash !== one.plan.hash || m.plan.shards !== 3 || "shard" in m.plan)
      fail("merged plan " + JSON.stringify(m.plan) + " vs " + JSON.stringify(one.plan));
    let ops = 0;
    one.runs.forEach((r, i) => {
      const x = m.runs[i];
      if (x.job !== i || r.job !== i || x.target !== r.target) fail("job " + i + " out of order");
      if (x.ops.length !== r.ops.length) fail(r.target + ": other operations");
      r.ops.forEach((o, k) => {
        const p = x.ops[k];
        if (o.alg !== p.alg || o.op !== p.op || JSON.stringify(o.samples) !== JSON.stringify(p.samples))
          fail(r.target + " " + o.alg + " " + o.op + ": samples differ");
        ops++;
      });
      const wf = (w) => JSON.stringify(w.map((v) => [v.workflow, v.variant, v.backend, v.samples, v.stored, v.messages]));
      if (wf(r.workflows) !== wf(x.workflows)) fail(r.target + ": workflow results differ");
    });
    console.log(ops + " operations of " + m.runs.length + " jobs and every workflow identical");' \
    "$work/one/latest/results.json" "$work/merged/latest/results.json"
  for f in report.md report.html results.csv console-qemu-m4-matrix-it-clang-O2.log; do
    [ -s "$work/merged/latest/$f" ] || fail "the merged directory lacks $f"
  done
  # Host timings stay on one machine: a host job is dealt into slice 0.
  "$merlin" run --target qemu-m4,host --plan-only - --shard 1/2 >/dev/null
  "$merlin" run --target qemu-m4,host --plan-only "$work/h.json" --shard 0/2 |
    grep -E '^ +1 +host .* 0 of 2$' >/dev/null || fail "the host job is not in slice 0"
  n=5
  ;;
refuse)
  s=$art/shards
  [ -d "$s/S2" ] || fail "no shards in $s (shard-same-qemu keeps them)"
  out=(--out "$work/m")
  expect 1 "shard 2/3 is missing" "$merlin" merge "$s/S0" "$s/S1" "${out[@]}"
  expect 1 "shard 1/3 given twice" "$merlin" merge "$s/S0" "$s/S1" "$s/S1" "$s/S2" "${out[@]}"
  # A shard of another plan: the same slice run with other --runs.
  cp -r "$(readlink -f "$s/S1/latest")" "$work/other"
  node -e '
    const fs = require("fs"), f = process.argv[1], j = JSON.parse(fs.readFileSync(f));
    j.plan.hash = "0".repeat(64); fs.writeFileSync(f, JSON.stringify(j));' "$work/other/results.json"
  expect 1 "shards of different plans" "$merlin" merge "$s/S0" "$work/other" "$s/S2" "${out[@]}"
  # The same plan from another source revision.
  cp -r "$(readlink -f "$s/S2/latest")" "$work/rev"
  node -e '
    const fs = require("fs"), f = process.argv[1], j = JSON.parse(fs.readFileSync(f));
    for (const r of j.runs) r.provenance.source = "0123abc";
    fs.writeFileSync(f, JSON.stringify(j));' "$work/rev/results.json"
  expect 1 "differ in their source revision" "$merlin" merge "$s/S0" "$s/S1" "$work/rev" "${out[@]}"
  # A job in two shards.
  cp -r "$(readlink -f "$s/S1/latest")" "$work/dup"
  node -e '
    const fs = require("fs"), [f, g] = process.argv.slice(1);
    const j = JSON.parse(fs.readFileSync(f)), k = JSON.parse(fs.readFileSync(g));
    j.runs.push(k.runs[0]); fs.writeFileSync(f, JSON.stringify(j));' \
    "$work/dup/results.json" "$(readlink -f "$s/S2/latest")/results.json"
  expect 1 "is in two shards" "$merlin" merge "$s/S0" "$work/dup" "$s/S2" "${out[@]}"
  [ ! -e "$work/m" ] || fail "a refused merge wrote $work/m"
  expect 2 "--shard takes K/N" "$merlin" run --target qemu-m4 --shard 3/3
  expect 2 "--shard takes K/N" "$merlin" run --target qemu-m4 --shard 1
  expect 2 "not with --from" "$merlin" run --target qemu-m4 --shard 0/2 --from /dev/null
  expect 2 "expects the results directories" "$merlin" merge
  ;;
plan)
  # --costs from the shards' own results: the heaviest job alone.
  "$merlin" run "${run[@]}" --plan-only "$work/plan.json" --shard 0/2 \
    --costs "$art/shards/S1" >"$work/table"
  cat "$work/table"
  grep -q "4 job(s)" "$work/table" || fail "--plan-only printed no table"
  node -e '
    const p = require(process.argv[1]);
    if (p.jobs.length !== 4 || !/^[0-9a-f]{64}$/.test(p.hash) || !p.args.includes("--runs") ||
        p.jobs.filter((j) => j.cost > 0).length < 1)
      { console.log("FAIL: plan " + JSON.stringify(p).slice(0, 300)); process.exit(1); }' \
    "$work/plan.json"
  "$merlin" run --plan "$work/plan.json" --shard 1/2 --out "$work/p1" --quiet >/dev/null
  h=$(node -e 'console.log(require(process.argv[1]).hash)' "$work/plan.json")
  node -e '
    const r = require(process.argv[1]);
    if (r.plan.hash !== process.argv[2] || r.plan.shard !== 1 || r.plan.shards !== 2)
      { console.log("FAIL: the slice records " + JSON.stringify(r.plan)); process.exit(1); }' \
    "$work/p1/latest/results.json" "$h"
  expect 2 "add only --shard, --out" "$merlin" run --plan "$work/plan.json" --runs 3
  sed 's/"runs": 3/"runs": 4/' "$work/plan.json" >"$work/bad.json"
  expect 2 "are not these" "$merlin" run --plan "$work/bad.json" --shard 0/2 --out "$work/bad"
  # A profile changed after planning: the plan no longer matches.
  cp "$root/profiles/default.profile" "$work/t.profile"
  "$merlin" run --target qemu-m4 --profile "$work/t.profile" --plan-only "$work/t.json" >/dev/null
  echo "# changed after planning" >>"$work/t.profile"
  expect 2 "differs from what this tree and these options plan" \
    "$merlin" run --plan "$work/t.json" --out "$work/t"
  n=$((n + 2))
  ;;
parts)
  toys=$root/tests/impl
  mkdir -p "$work/c"
  node -e '
    const fs = require("fs"), j = JSON.parse(fs.readFileSync(process.argv[1]));
    for (const r of j.runs) for (const o of r.ops) {
      if (o.backend !== "pqclean") continue;
      if (o.alg === "ml-kem-512") o.backend = "impl:toy-kem/ref";
      if (o.alg === "ml-dsa-44") o.backend = "impl:toy-sign/ref";
    }
    fs.writeFileSync(process.argv[2], JSON.stringify(j));' \
    "$art/report-data/results.json" "$work/c/results.json"
  folders=(--impl "$toys/crypto_kem/toy-kem/ref" --impl "$toys/crypto_sign/toy-sign/ref")
  "$merlin" run --target host,qemu-m4 "${folders[@]}" --plan-only "$work/p.json" \
    --costs "$work/c" --shard 0/4 >"$work/table"
  cat "$work/table"
  node -e '
    const p = require(process.argv[1]), fail = (w) => { console.log("FAIL: " + w); process.exit(1); };
    const own = p.jobs.filter((j) => j.profile === "default");
    const part = p.jobs.filter((j) => j.profile === "default.part1");
    if (own.length !== 2 || part.length !== 2 || p.jobs.length !== 4) fail("jobs " + p.jobs.map((j) => j.profile));
    if (own.some((j) => j.impls.length) || part.some((j) => j.impls.length !== 2))
      fail("folders: own " + own.map((j) => j.impls.length) + ", part " + part.map((j) => j.impls.length));
    if (!p.jobs.every((j) => j.cost > 0)) fail("a job without a cost");' "$work/p.json"
  # The summary: the heaviest slice, never below the heaviest job.
  node -e '
    const fs = require("fs"), fail = (w) => { console.log("FAIL: " + w); process.exit(1); };
    const m = fs.readFileSync(process.argv[1], "utf8").match(
      /4 slice\(s\): the heaviest ([0-9,.]+) \(estimate\), [0-9.]+% of the plan.s ([0-9,.]+); the heaviest job, ([0-9,.]+), bounds/);
    if (!m) fail("no summary of the slices");
    const [slice, whole, job] = m.slice(1).map((x) => Number(x.replace(/,/g, "")));
    if (!(job <= slice && slice <= whole)) fail(`heaviest job ${job}, slice ${slice}, whole ${whole}`);' "$work/table"
  # An empty slice of it runs the parts' plan again from the file, whole.
  "$merlin" run --plan "$work/p.json" --shard 3/4 --out "$work/s3" >/dev/null 2>"$work/log" ||
    { cat "$work/log"; fail "the plan's parts made again from the file differ"; }
  grep -q "shard 3/4 runs 0 of them" "$work/log" || { cat "$work/log"; fail "slice 3 of 4 has jobs"; }
  # Each folder a part of its own (costs: every toy operation 10^12, so
  # each folder outweighs the profile's own image and the two do not fit
  # together), run on the host and merged: both parts' folders are impl-0
  # of their images, which is not two library versions.
  node -e '
    const fs = require("fs"), j = JSON.parse(fs.readFileSync(process.argv[1]));
    for (const r of j.runs) for (const o of r.ops) {
      if (!o.backend.startsWith("impl:")) continue;
      o.samples = o.samples.map(() => 1e12);
      for (const k of ["median", "p99", "min", "max", "mean"]) o[k] = 1e12;
      o.iqr = o.stddev = o.cv = 0;
    }
    fs.writeFileSync(process.argv[1], JSON.stringify(j));' "$work/c/results.json"
  "$merlin" run --target host "${folders[@]}" --runs 1 --warmup 0 \
    --plan-only "$work/p2.json" --costs "$work/c" >/dev/null
  node -e '
    const p = require(process.argv[1]), parts = p.jobs.filter((j) => j.impls.length === 1);
    if (p.jobs.length !== 3 || parts.length !== 2 || parts.some((j) => !j.profile.includes(".part"))) {
      console.log("FAIL: jobs " + JSON.stringify(p.jobs.map((j) => [j.profile, j.impls.length])));
      process.exit(1);
    }' "$work/p2.json"
  "$merlin" run --plan "$work/p2.json" --shard 0/1 --out "$work/h" --quiet >/dev/null
  "$merlin" merge "$work/h" --out "$work/hm" >"$work/log" 2>&1 || { cat "$work/log"; fail "the parts' runs do not merge"; }
  [ "$(node -e 'console.log(require(process.argv[1]).runs.length)' "$work/hm/latest/results.json")" = 3 ] ||
    fail "the merged run has not the plan's three runs"
  n=4
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "$n passed, 0 failed"
