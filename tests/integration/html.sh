#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# report.html in a real browser (Debian's chromium, headless): the page
# loads, its script runs without errors, and every plot has the number of
# series the results call for (computed here from results.json). The
# screenshot is kept as a build artifact.
#   html.sh MERLIN ARTIFACT_DIR
set -euo pipefail
merlin=$1 artifacts=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-html.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || fail "chromium is not installed (scripts/setup installs it)"

"$merlin" run --target host,qemu-m4 --runs 5 --warmup 1 --out "$work/out" --quiet
d=$(cd "$work/out/latest" && pwd)
[ -s "$d/report.html" ] || fail "merlin run wrote no report.html"
grep -q "http" "$d/report.html" && fail "report.html refers to the network"

flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage
  --no-first-run --user-data-dir="$work/profile")
timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 \
  --dump-dom "file://$d/report.html" >"$work/dom.html" 2>"$work/console.log" ||
  { cat "$work/console.log"; fail "chromium could not render the page"; }
if grep -E "Uncaught|CONSOLE.*(Error|error)" "$work/console.log"; then
  fail "the page logged an error"
fi
got=$(grep -o '<title>series:[^<]*</title>' "$work/dom.html" | head -n 1 |
  sed 's:<title>series\:\(.*\)</title>:\1:')
[ -n "$got" ] || fail "the page's script did not run (no series count in the title)"
want=$(node -e '
  const j = require(process.argv[1]);
  const c = {};
  const add = (k, n) => { if (n) c[k] = (c[k] || 0) + n; };
  for (const r of j.runs) {
    const ops = r.ops;
    add("bars", new Set(ops.filter(o => o.bytes === null).map(o => o.backend)).size);
    let ratios = 0;
    for (const pq of ["ml-kem-512", "ml-kem-768"])
      for (const cl of ["ecdh-p256", "x25519"])
        if (ops.some(o => o.alg === pq) && ops.some(o => o.alg === cl)) ratios = 1;
    add("ratios", ratios);
    add("payload", new Set(ops.filter(o => o.bytes !== null)
                              .map(o => o.alg + o.op + o.backend)).size);
    add("cdf", ops.filter(o => o.op === "sign" && o.cv > 0.05).length);
  }
  const order = ["bars", "ratios", "payload", "cdf"];
  const out = {};
  for (const k of order) if (c[k]) out[k] = c[k];
  console.log(JSON.stringify(out));' "$d/results.json")
norm() { node -e 'const o = JSON.parse(process.argv[1]); const k = Object.keys(o).sort(); console.log(k.map(x => x + "=" + o[x]).join(","))' "$1"; }
[ "$(norm "$got")" = "$(norm "$want")" ] ||
  fail "series per plot: the page has $got, the results call for $want"
echo "series per plot: $got"
# The fit and ratio tables, once per target.
for t in fits ratios; do
  n=$(grep -o "data-table=\"$t\"" "$work/dom.html" | wc -l)
  [ "$n" -eq 2 ] || fail "$n $t tables, want one per target (2)"
done

mkdir -p "$artifacts"
timeout 120 "$browser" "${flags[@]}" --window-size=1000,4000 \
  --screenshot="$artifacts/report.png" "file://$d/report.html" \
  >/dev/null 2>&1 || fail "no screenshot"
[ -s "$artifacts/report.png" ] || fail "empty screenshot"
echo "screenshot: $artifacts/report.png"
echo "6 passed, 0 failed"
