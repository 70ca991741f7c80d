#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The reports people look at and the formats CI reads (docs/report-html.md,
# docs/results.md), on one results directory made once:
#   html.sh MERLIN ART data     merlin run --target host,qemu-m4 (5 runs)
#                               into ART/report-data (the fixture)
#   html.sh MERLIN ART browser  report.html of that run in chromium
#                               (html.mjs); screenshots in ART
#   html.sh MERLIN ART matrix   the same on the matrix run
#                               (ART/matrix-results, from matrix.sh)
#   html.sh MERLIN ART compare  compare --force against a copy built "-O3"
#                               with one operation twice as slow and one
#                               twice as fast: --html page in chromium
#   html.sh MERLIN ART profiles compare with a run of another profile (an
#                               --alg run's copy: qemu-m4, two algorithms
#                               on wolfcrypt): exit 0 or 1, the shared
#                               operations compared and named, the rest
#                               listed as only in OLD; a run of another
#                               target only: exit 2, naming what each holds
#   html.sh MERLIN ART noise    compare of copies whose host control
#                               varies by 30 %: a host change of 10 % is
#                               "within noise" (exit 0), one of 60 % and a
#                               QEMU one of 5 % are REGRESSED (exit 1); the
#                               verdict on the first line, devices first,
#                               regressions before the folded rows
#   html.sh MERLIN ART ci       --format benchmark-action (JSON, every
#                               timed operation) and --format junit (XML,
#                               a case per KAT)
#   html.sh MERLIN ART hostile  hostile strings in every field of that
#                               run: every format escapes them, chromium
#                               runs none of them (hostile.mjs)
#   html.sh MERLIN ART outputs  compare --html/--md and report to a FIFO,
#                               a character device (as root) and a
#                               directory: refused, named, unchanged; to a
#                               symlink: its file replaced, the link kept;
#                               to "-": stdout
#   html.sh MERLIN ART summary  merlin report DIR ends with report.md's
#                               headline: the same runs (devices first),
#                               jobs, choices, figures and ratios, within
#                               100 columns (summary.mjs)
#   html.sh MERLIN ART nolib    without the charting library: report,
#                               compare --html and run fail, saying so
set -euo pipefail
merlin=$1 art=$2 mode=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=$art/report-data
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-html.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/chromium ] || fail "chromium is not installed (scripts/setup test installs it)"

case $mode in
data)
  rm -rf "$data"
  "$merlin" run --target host,qemu-m4 --runs 5 --warmup 1 --out "$work/out" --quiet
  mkdir -p "$art"
  cp -rL "$work/out/latest" "$data"
  [ -s "$data/report.html" ] || fail "merlin run wrote no report.html"
  echo "1 passed, 0 failed"
  ;;
browser)
  node "$here/html.mjs" report "$data" "$art/report-html"
  ;;
hostile)
  node "$here/hostile.mjs" "$merlin" "$data" "$art/report-hostile"
  ;;
summary)
  "$merlin" report "$data" >"$work/out"
  cat "$work/out"
  node "$here/summary.mjs" "$data/report.md" "$work/out"
  ;;
outputs)
  mkfifo "$work/fifo"
  mkdir "$work/dir"
  kinds="fifo dir"
  if mknod "$work/chr" c 1 3 2>/dev/null; then kinds="$kinds chr"; fi
  n=0
  for k in $kinds; do
    for opt in --html --md; do
      set +e
      "$merlin" compare "$data" "$data" "$opt" "$work/$k" >"$work/msg" 2>&1
      rc=$?
      set -e
      [ "$rc" -ne 0 ] || fail "compare $opt to a $k: exit 0"
      grep -q "$work/$k is a" "$work/msg" || { cat "$work/msg"; fail "compare $opt to a $k: the message does not name it"; }
      n=$((n + 1))
    done
  done
  [ -p "$work/fifo" ] && [ -d "$work/dir" ] || fail "a special file was replaced"
  case $kinds in *chr*) [ -c "$work/chr" ] || fail "the character device was replaced" ;; esac
  # report into a results directory whose report.md is a FIFO
  cp -r "$data" "$work/res"
  rm -f "$work/res/report.md"
  mkfifo "$work/res/report.md"
  if "$merlin" report "$work/res" >"$work/msg" 2>&1; then fail "report over a FIFO: exit 0"; fi
  grep -q "report.md is a FIFO" "$work/msg" || { cat "$work/msg"; fail "report over a FIFO: not named"; }
  [ -p "$work/res/report.md" ] || fail "report replaced the FIFO"
  # a symlink: the file it names is replaced, the link kept
  echo old >"$work/real.html"
  ln -s real.html "$work/link.html"
  "$merlin" compare "$data" "$data" --html "$work/link.html" >/dev/null
  [ -L "$work/link.html" ] || fail "compare --html replaced the symlink"
  grep -q "<!DOCTYPE html>" "$work/real.html" || fail "compare --html did not write through the symlink"
  # "-": the Markdown summary on stdout
  "$merlin" compare "$data" "$data" --md - >"$work/stdout"
  grep -q "^## Merlin compare: " "$work/stdout" || fail "compare --md - wrote nothing to stdout"
  echo "$((n + 3)) passed, 0 failed ($kinds)"
  ;;
matrix)
  if [ -f "$art/matrix-results/results.json" ]; then
    node "$here/html.mjs" report "$art/matrix-results" "$art/report-html" matrix
  else
    fail "no matrix results in $art/matrix-results (matrix-run-qemu-m4 keeps them)"
  fi
  ;;
compare)
  # The copy: the host run as it is, qemu-m4 built -O3 (provenance differs:
  # --force; alone in o3q, nothing pairs without it), ML-KEM-512
  # keygen twice as slow, ECDH P-256 shared twice as fast (every statistic
  # doubles or halves exactly with the samples).
  mkdir -p "$work/o3" "$work/o3q"
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const r = j.runs.find((r) => r.target === "qemu-m4");
    r.provenance.cflags = r.provenance.cflags.replace("-O2", "-O3");
    const scale = (o, f) => {
      o.samples = o.samples.map((x) => x * f);
      for (const k of ["median", "p99", "iqr", "min", "max", "mean", "stddev"]) o[k] *= f;
    };
    scale(r.ops.find((o) => o.alg === "ml-kem-512" && o.op === "keygen" && o.backend === "wolfcrypt"), 2);
    scale(r.ops.find((o) => o.alg === "ecdh-p256" && o.op === "shared" && o.backend === "wolfcrypt"), 0.5);
    fs.writeFileSync(process.argv[2], JSON.stringify(j));
    j.runs = [r];
    fs.writeFileSync(process.argv[3], JSON.stringify(j));' "$data/results.json" "$work/o3/results.json" "$work/o3q/results.json"
  set +e
  "$merlin" compare "$data" "$work/o3q" --html "$work/refused.html" >"$work/msg" 2>&1
  rc=$?
  "$merlin" compare "$data" "$work/o3" --force --html "$art/compare.html" >>"$work/msg" 2>&1
  rc2=$?
  set -e
  cat "$work/msg"
  [ "$rc" -eq 2 ] && [ ! -e "$work/refused.html" ] || fail "a refused compare: exit $rc, want 2 and no page"
  [ "$rc2" -eq 1 ] || fail "compare --force with a regression: exit $rc2, want 1"
  grep -q "page written to $art/compare.html" "$work/msg" || fail "compare --html wrote no page"
  node "$here/html.mjs" compare "$art/compare.html" "$art/report-html"
  ;;
profiles)
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const r = j.runs.find((r) => r.target === "qemu-m4");
    const keep = (a) => a === "ml-kem-512" || a === "ecdh-p256";
    r.profile = "adhoc-00000000";
    r.ops = r.ops.filter((o) => keep(o.alg) && o.backend === "wolfcrypt");
    r.workflows = [];
    r.algorithms = (r.algorithms || []).filter((a) => keep(a.alg) && a.backend === "wolfcrypt");
    for (const k of Object.keys(r.provenance))
      if (k.startsWith("route.") && !keep(k.slice(6))) delete r.provenance[k];
    j.runs = [r];
    fs.writeFileSync(process.argv[2], JSON.stringify(j));
    r.target = "qemu-m7";
    fs.writeFileSync(process.argv[3], JSON.stringify(j));' \
    "$data/results.json" "$work/alg.json" "$work/m7.json"
  set +e
  "$merlin" compare "$data" "$work/alg.json" >"$work/out" 2>&1
  rc=$?
  "$merlin" compare "$data" "$work/m7.json" >"$work/none" 2>&1
  rc2=$?
  set -e
  cat "$work/out" "$work/none"
  [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "default against an --alg run: exit $rc, want 0 or 1"
  head -1 "$work/out" | grep -q "^merlin compare: .*: 5 operation(s) compared: .*153 only in OLD$" ||
    fail "the verdict does not count 5 compared and 153 only in OLD: $(head -1 "$work/out")"
  grep -q "^qemu-m4 (profile default -> adhoc-00000000, gcc -O2), in instructions" "$work/out" || fail "no qemu-m4 group naming both profiles"
  # a list's lines continue indented by four: one line each
  sed ':a;N;$!ba;s/\n    / /g' "$work/out" >"$work/joined"
  grep -q "^  compared, in both: 5 operations: ecdh-p256 keygen, shared (wolfcrypt); ml-kem-512 keygen, encaps, decaps (wolfcrypt)$" "$work/joined" ||
    fail "the shared operations are not named"
  grep -q "^  only in OLD, not compared: 74 operations: " "$work/out" || fail "qemu-m4: what only OLD has is not listed"
  grep -q "^host (profile default, gcc -O2), in ns" "$work/out" && grep -q "^  only in OLD, not compared: 79 operations: sha256 (6 on wolfcrypt, mbedtls); .* ml-dsa-65 (6 on wolfcrypt, pqclean)$" "$work/joined" ||
    fail "the host run, only in OLD, is not listed"
  [ "$rc2" -eq 2 ] || fail "no operation in common: exit $rc2, want 2"
  grep -q "no operation in common" "$work/none" && grep -q "OLD holds host (profile default, gcc -O2, 79 operations), qemu-m4 (profile default, gcc -O2, 79 operations); NEW holds qemu-m7 (profile adhoc-00000000, gcc -O2, 5 operations)$" "$work/none" ||
    fail "nothing in common: what each side holds is not said"
  echo "7 passed, 0 failed"
  ;;
noise)
  # Two copies of the run: the host's control set to 20 probes at 100 and
  # 20 at 130 ticks (p95/p5 - 1 = 30 %) in both; two host operations and
  # one QEMU operation given constant samples (no spread) in both, then
  # scaled in the new copy: x1.10 and x1.60 on the host, x1.05 on QEMU.
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const host = j.runs.find((r) => r.target === "host"), qemu = j.runs.find((r) => r.target === "qemu-m4");
    host.control = { primitive: host.control.primitive, ticks_per_call: Array(40).fill(0).map((_, i) => (i < 20 ? 100 : 130)) };
    const pick = (r, alg, op) => r.ops.find((o) => o.alg === alg && o.op === op && o.backend === "wolfcrypt");
    const flat = (o, m) => {
      o.samples = o.samples.map(() => m);
      for (const k of ["median", "p99", "min", "max", "mean"]) o[k] = m;
      o.iqr = o.stddev = o.cv = 0;
    };
    const ops = [[pick(host, "x25519", "keygen"), 1.1], [pick(host, "ecdsa-p256", "sign"), 1.6], [pick(qemu, "ml-kem-512", "encaps"), 1.05]];
    for (const [o] of ops) flat(o, Math.round(o.median));
    fs.writeFileSync(process.argv[2], JSON.stringify(j));
    for (const [o, f] of ops) flat(o, o.median * f);
    fs.writeFileSync(process.argv[3], JSON.stringify(j));
    // back to the old whole numbers: m * 1.6 / 1.6 is not always m in
    // floating point, and a change of one ulp is a change ("within noise")
    flat(ops[1][0], Math.round(ops[1][0].samples[0] / 1.6));
    flat(ops[2][0], Math.round(ops[2][0].samples[0] / 1.05));
    fs.writeFileSync(process.argv[4], JSON.stringify(j));' \
    "$data/results.json" "$work/old.json" "$work/new.json" "$work/noisy.json"
  set +e
  "$merlin" compare "$work/old.json" "$work/new.json" --md "$work/c.md" >"$work/out" 2>&1
  rc=$?
  "$merlin" compare "$work/old.json" "$work/noisy.json" --md "$work/n.md" >"$work/nout" 2>&1
  rc2=$?
  set -e
  cat "$work/out" "$work/nout"
  [ "$rc" -eq 1 ] || fail "a 60 % host and a 5 % QEMU change: exit $rc, want 1"
  [ "$rc2" -eq 0 ] || fail "only a host change under the noise: exit $rc2, want 0"
  head -1 "$work/out" | grep -q "^merlin compare: REGRESSED: 2 of 158 operation(s) slower by more than 2.0%: .*1 within noise" ||
    fail "the first line is not the verdict: $(head -1 "$work/out")"
  head -1 "$work/nout" | grep -q "^merlin compare: no regression: 158 operation(s) compared: 1 within noise, 157 the same$" ||
    fail "the first line is not the verdict: $(head -1 "$work/nout")"
  head -1 "$work/c.md" | grep -q "^## Merlin compare: REGRESSED: 2 of 158" || fail "--md: the first line is $(head -1 "$work/c.md")"
  head -1 "$work/n.md" | grep -q "^## Merlin compare: no regression" || fail "--md: the first line is $(head -1 "$work/n.md")"
  # devices first; in each group the regression, then the folded count
  q=$(grep -n "^qemu-m4 (profile default, gcc -O2), in instructions; noise 0.0% (old), 0.0% (new)$" "$work/out" | cut -d: -f1)
  h=$(grep -n "^host (profile default, gcc -O2), in ns; noise 30.0% (old), 30.0% (new)$" "$work/out" | cut -d: -f1)
  [ -n "$q" ] && [ -n "$h" ] && [ "$q" -lt "$h" ] || fail "group headers: qemu-m4 at '$q', host at '$h'"
  sed -n "$((q + 1))p" "$work/out" | grep -qE "^  ml-kem-512 encaps \(wolfcrypt\) .* \+5\.00%  REGRESSED$" || fail "qemu-m4: the regression does not lead"
  sed -n "$((q + 2))p" "$work/out" | grep -q "^  78 unchanged: 78 the same$" || fail "qemu-m4: the unchanged rows are not folded"
  sed -n "$((h + 1))p" "$work/out" | grep -qE "^  ecdsa-p256 sign \(wolfcrypt\) .* \+60\.00%  REGRESSED$" || fail "host: the regression does not lead"
  sed -n "$((h + 2))p" "$work/out" | grep -q "^  78 unchanged: 77 the same, 1 within noise$" || fail "host: no folded count with the change within noise"
  ! grep -q "x25519 keygen" "$work/out" || fail "a change within noise is listed on the terminal"
  grep -qF "| x25519 keygen (wolfcrypt) |" "$work/c.md" && grep -qF "| +10.00 % | within noise |" "$work/c.md" ||
    fail "--md: the change within noise is not in the folded table"
  grep -q "^<details><summary>78 unchanged: 77 the same, 1 within noise</summary>$" "$work/c.md" || fail "--md: the host's rows are not folded"
  echo "4 passed, 0 failed"
  ;;
ci)
  "$merlin" report "$data" --format benchmark-action
  "$merlin" report "$data" --format junit
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1] + "/results.json", "utf8"));
    const b = JSON.parse(fs.readFileSync(process.argv[1] + "/benchmark-action.json", "utf8"));
    const bad = (m) => { console.log("FAIL: " + m); process.exit(1); };
    if (!Array.isArray(b)) bad("benchmark-action.json is not an array");
    // every timed operation, then every checked workflow, run by run
    const timed = j.runs.flatMap((r) => r.ops.map((o) => [r, o, o.alg + " " + o.op])
      .concat((r.workflows || []).filter((w) => w.check === "pass" && w.n).map((w) => [r, w, "workflow " + w.workflow + " " + w.variant + " (" + w.backend + ")"])));
    if (b.length !== timed.length) bad(b.length + " entries for " + timed.length + " operations and workflows");
    const names = new Set();
    b.forEach((e, i) => {
      const [r, o, what] = timed[i];
      if (typeof e.name !== "string" || typeof e.unit !== "string" || typeof e.value !== "number" || typeof e.extra !== "string")
        bad("entry " + i + " lacks name, unit, value or extra: " + JSON.stringify(e));
      if (e.value !== o.median || e.unit !== r.provenance.unit) bad("entry " + i + ": " + e.value + " " + e.unit + ", results.json " + o.median);
      if (!e.name.startsWith(r.target + " ") || !e.name.includes(what)) bad("entry " + i + " name " + e.name);
      if (!e.extra.includes("p99: " + o.p99) || !e.extra.includes("n: " + o.n)) bad("entry " + i + " extra " + e.extra);
      names.add(e.name);
    });
    if (names.size !== b.length) bad("names are not unique");
    const kats = j.runs.reduce((s, r) => s + new Set(r.ops.map((o) => [o.alg, o.op, o.backend, o.variant].join("/"))).size, 0);
    const wfs = j.runs.reduce((s, r) => s + (r.workflows || []).length, 0);
    fs.writeFileSync(process.argv[1] + "/junit.want", kats + " " + wfs + "\n");
    if (!timed.some(([, , w]) => w.startsWith("workflow "))) bad("the run has no workflow to check");
    console.log("benchmark-action: " + b.length + " entries, one per timed operation and checked workflow");
  ' "$data"
  command -v xmllint >/dev/null || fail "xmllint is not installed (scripts/setup test installs libxml2-utils)"
  xmllint --noout "$data/junit.xml" || fail "junit.xml is not well-formed XML"
  read -r kats wfs <"$data/junit.want"
  got=$(xmllint --xpath 'count(//testsuite/testcase[substring(@classname, string-length(@classname) - 3) = ".kat"])' "$data/junit.xml")
  [ "$got" = "$kats" ] || fail "junit.xml has $got KAT cases, results.json $kats (alg, op, backend, variant) per run"
  got=$(xmllint --xpath 'count(//testsuite/testcase[contains(@classname, ".workflow")])' "$data/junit.xml")
  [ "$got" = "$wfs" ] || fail "junit.xml has $got workflow cases, results.json $wfs"
  suites=$(xmllint --xpath 'count(/testsuites/testsuite)' "$data/junit.xml")
  [ "$suites" = 2 ] || fail "junit.xml has $suites suites, want one per run (2)"
  sum=$(xmllint --xpath 'sum(/testsuites/testsuite/@tests)' "$data/junit.xml")
  [ "$sum" = $((kats + wfs)) ] || fail "the suites' tests attributes add up to $sum, not $((kats + wfs))"
  echo "junit: $kats KAT cases and $wfs workflow cases in $suites suites"
  echo "2 passed, 0 failed"
  ;;
nolib)
  # A copy of the tree's files with third_party lacking vega-lite.
  tree=$work/tree
  mkdir -p "$tree/third_party"
  (cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$tree")
  for d in "$root"/third_party/*; do
    [ "$(basename "$d")" = vega-lite ] || ln -s "$d" "$tree/third_party/"
  done
  cp -r "$data" "$work/res"
  set +e
  MERLIN_ROOT=$tree "$merlin" report "$work/res" --format html >"$work/msg" 2>&1
  r1=$?
  MERLIN_ROOT=$tree "$merlin" compare "$work/res" "$work/res" --html "$work/c.html" >>"$work/msg" 2>&1
  r2=$?
  MERLIN_ROOT=$tree "$merlin" run --target qemu-m4 --from "$data/console-qemu-m4-default.log" --out "$work/out" >>"$work/msg" 2>&1
  r3=$?
  set -e
  cat "$work/msg"
  [ "$r1" -eq 1 ] || fail "report --format html without the library: exit $r1, want 1"
  [ "$r2" -eq 2 ] || fail "compare --html without the library: exit $r2, want 2"
  [ "$r3" -eq 1 ] || fail "run without the library: exit $r3, want 1"
  n=$(grep -c "third_party/vega-lite/build/vega-lite.min.js.*scripts/fetch-deps" "$work/msg")
  [ "$n" -eq 3 ] || fail "$n of 3 messages name the missing file and scripts/fetch-deps"
  [ ! -e "$work/c.html" ] && [ ! -e "$work/out" ] || fail "something was written"
  cmp -s "$data/report.html" "$work/res/report.html" || fail "report.html was changed"
  echo "3 passed, 0 failed"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
