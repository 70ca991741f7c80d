// SPDX-License-Identifier: Apache-2.0
// The terminal summary (host/report/summary.c) against report.md's headline
// (host/report/headline.c): the same runs in the same order (devices
// first), and for every job the same cheapest post-quantum and classical
// choices, backends, figures, ratio and direction, and count of pairings;
// every line within 100 columns.
//   node summary.mjs REPORT.md SUMMARY.txt
import { readFileSync } from "node:fs";

const [mdPath, sumPath] = process.argv.slice(2);
const md = readFileSync(mdPath, "utf8");
const text = readFileSync(sumPath, "utf8");
let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else {
    failed++;
    console.log("FAIL: " + what);
  }
};

// report.md's headline: per run ("### TARGET (profile P...)"), its job
// sentences.
const head = md.slice(md.indexOf("## Headline"), md.indexOf("\n## ", md.indexOf("## Headline") + 1));
const runs = [];
const SENTENCE = /^- \*\*(.+?):\*\* (.+?) on (\S+), (.+?), against (.+?) on (\S+), (.+?): (.+?); post-quantum is cheaper in (\d+) of (\d+) pairings?\.$/;
for (const line of head.split("\n")) {
  if (line.startsWith("### ")) runs.push({ title: line.slice(4), jobs: [] });
  const m = SENTENCE.exec(line);
  if (m && runs.length) {
    const [, what, pq, pqb, pqf, ref, refb, reff, dir, cheaper, n] = m;
    runs[runs.length - 1].jobs.push({ what, pq, pqb, pqf, ref, refb, reff, dir, cheaper, n });
  }
}
check(runs.length > 0 && runs.every((r) => r.jobs.length === 4), `report.md's headline has runs with four job sentences each (${runs.map((r) => r.jobs.length).join(", ")})`);

// The summary: a run starts at a line without indentation.
const lines = text.split("\n").filter((l) => l && !l.startsWith("merlin: "));
const starts = lines.map((l, i) => (/^\S/.test(l) && !l.startsWith("Every pairing") ? i : -1)).filter((i) => i >= 0);
check(starts.length === runs.length, `the summary has ${starts.length} runs, report.md ${runs.length}`);
runs.forEach((r, k) => {
  const at = starts[k];
  if (at === undefined) return;
  const block = lines.slice(at, starts[k + 1] ?? lines.length);
  check(block[0] === r.title, `run ${k + 1} is ${r.title} in both (summary: ${block[0]})`);
  for (const j of r.jobs) {
    const dir = j.dir === "the same cost" ? "at the same cost" : j.dir;
    const want = [
      `  ${j.what}: post-quantum ${dir}`,
      `    ${j.pq} on ${j.pqb}: ${j.pqf}`,
      `    against ${j.ref} on ${j.refb}: ${j.reff}`,
      `    post-quantum is cheaper in ${j.cheaper} of ${j.n} pairing${j.n === "1" ? "" : "s"}`,
    ];
    const i = block.indexOf(want[0]);
    const got = i < 0 ? [] : block.slice(i, i + 4);
    check(JSON.stringify(got) === JSON.stringify(want), `${r.title}, ${j.what}: the summary gives\n${got.join("\n")}\n  report.md\n${want.join("\n")}`);
  }
});
const device = runs.findIndex((r) => !/^host/.test(r.title));
check(device <= 0, "the device leads");
const wide = text.split("\n").filter((l) => [...l].length > 100);
check(wide.length === 0, `every line within 100 columns (${wide.join(" | ")})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
