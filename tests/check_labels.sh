#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every test has an area label (tests/labels.cmake: unit, integration,
# qemu, browser, slurm, docs), so that `ctest -L AREA` leaves none out.
#   check_labels.sh BUILD_DIR     the tests of that build (ctest
#                                 --show-only=json-v1)
#   check_labels.sh FILE.json     the same listing, from a file
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src=${1:?usage: check_labels.sh BUILD_DIR|FILE.json}
if [ -d "$src" ]; then
  json=$(ctest --test-dir "$src" --show-only=json-v1)
else
  json=$(cat "$src")
fi
node -e '
  const areas = ["unit", "integration", "qemu", "browser", "slurm", "docs"];
  const tests = JSON.parse(require("fs").readFileSync(0, "utf8")).tests || [];
  const count = Object.fromEntries(areas.map((a) => [a, 0]));
  let bad = 0;
  for (const t of tests) {
    const p = (t.properties || []).find((x) => x.name === "LABELS");
    const labels = p ? p.value : [];
    const mine = labels.filter((l) => areas.includes(l));
    if (!mine.length) {
      console.log(`FAIL: test ${t.name} has no area label (${labels.join(",") || "none"}): add a rule to tests/labels.cmake`);
      bad++;
    }
    for (const l of mine) count[l]++;
  }
  if (!tests.length) { console.log("FAIL: no tests listed"); process.exit(1); }
  if (bad) process.exit(1);
  console.log(`ok: ${tests.length} tests, every one with an area label: ` +
    areas.map((a) => `${a} ${count[a]}`).join(", "));' <<<"$json" || fail "tests without an area label"
