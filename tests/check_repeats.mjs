// SPDX-License-Identifier: Apache-2.0
// No block of six or more lines stands twice in host/ and src/ (issue 17):
// blocks are compared after trimming, over lines that carry code; blank
// lines, comments and lone braces do not count, and neither do data tables
// (initializer rows and the known-answer vectors of src/ops/vectors_*.c).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const MIN = 6;
const root = process.argv[2] || ".";
const files = execFileSync("git", ["-C", root, "ls-files", "host", "src"], { encoding: "utf8" })
  .split("\n")
  .filter((f) => /\.[ch]$/.test(f) && !/^src\/ops\/vectors_/.test(f));

// A line that carries code, or null. Rows of tables are data, not code.
function significant(raw) {
  let s = raw.trim();
  if (s === "" || /^(\/\/|\/\*|\*)/.test(s)) return null;
  if (/^[{}()[\];,]*$/.test(s)) return null;
  if (/^(\{|"|'|0x|[0-9]|X\(|\.[a-z_]+ =)/.test(s)) return null;
  if (/^#\s*(include|endif|else)/.test(s)) return null;
  return s.replace(/\s+/g, " ");
}

const seen = new Map(); // window text -> first place
const found = [];
for (const f of files) {
  const lines = readFileSync(`${root}/${f}`, "utf8").split("\n");
  const sig = [];
  lines.forEach((l, i) => {
    const s = significant(l);
    if (s !== null) sig.push({ s, n: i + 1 });
  });
  let skipTo = -1;
  for (let i = 0; i + MIN <= sig.length; i++) {
    const key = sig.slice(i, i + MIN).map((x) => x.s).join("\n");
    const here = { f, from: sig[i].n, to: sig[i + MIN - 1].n };
    const first = seen.get(key);
    if (!first) {
      seen.set(key, here);
    } else if (i > skipTo && !(first.f === f && first.to >= here.from)) {
      found.push(`${f}:${here.from}-${here.to} repeats ${first.f}:${first.from}-${first.to}`);
      skipTo = i + MIN - 1; // one report per run of overlapping windows
    }
  }
}
for (const r of found) console.log(`FAIL: ${r}`);
console.log(`${found.length ? "" : "ok: "}${files.length} files, ${found.length} repeated blocks of ${MIN}+ code lines`);
process.exit(found.length ? 1 : 0);
