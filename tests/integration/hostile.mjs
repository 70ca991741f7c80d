// SPDX-License-Identifier: Apache-2.0
// Hostile strings in every field a renderer prints (issue 30: "escape at
// the edge, once"). From a real results directory, every string of
// results.json that merlin's reader accepts with a payload appended gets
// the payload: markup that would run script in a page (<script>, an
// event handler, a javascript: link), Markdown table and link syntax, XML
// specials, and bytes that act instead of showing (ESC, BEL, U+202E, a
// C1 control, malformed UTF-8 is impossible in JSON text). Then every
// report format and both comparison outputs are rendered, and checked:
//   - no raw control byte or bidirectional override in any output;
//   - HTML: no payload tag or handler outside the data block, the page's
//     Content-Security-Policy present; in chromium no payload runs, the
//     payload text is visible, and a script or handler planted raw into a
//     copy of the page is blocked by that policy;
//   - Markdown: the payload's tag, link and pipe only escaped;
//   - junit.xml: well-formed (xmllint).
//   node hostile.mjs MERLIN DIR ART      DIR: a results directory
import { createRequire } from "node:module";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const { chromium } = require(join(root, "third_party/node_modules/playwright-core"));
const [merlin, dir, art] = process.argv.slice(2);
mkdirSync(art, { recursive: true });
let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else {
    failed++;
    console.log("FAIL: " + what);
  }
};

const TAG = "<x-probe title='t' onmouseover=\"window.__pwned='handler'\">";
const PAYLOAD =
  TAG + "\"'&amp;|[link](javascript:window.__pwned='link')`code`" +
  "\u001b[31m\u0007\u202e\u0085</x-probe><script>window.__pwned='script'</script>" +
  "<img src=x onerror=\"window.__pwned='img'\">";

const work = mkdtempSync(join(tmpdir(), "merlin-hostile-"));
const orig = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));

// Every string leaf as [path, pattern]: the pattern names the field with
// array positions left out, so one field of every run and op is tried at once.
function leaves(v, path = [], out = []) {
  if (typeof v === "string") out.push(path);
  else if (Array.isArray(v)) v.forEach((x, i) => leaves(x, path.concat([i]), out));
  else if (v && typeof v === "object") for (const k of Object.keys(v)) leaves(v[k], path.concat([k]), out);
  return out;
}
const pattern = (p) => p.map((k) => (typeof k === "number" ? "[]" : k)).join(".");
const get = (o, p) => p.reduce((a, k) => a[k], o);
const set = (o, p, v) => {
  const last = p[p.length - 1];
  get(o, p.slice(0, -1))[last] = v;
};
const byPattern = new Map();
for (const p of leaves(orig)) {
  const k = pattern(p);
  if (!byPattern.has(k)) byPattern.set(k, []);
  byPattern.get(k).push(p);
}

// How a field gets the payload: the whole value, or before or after it
// (for fields the reader checks the shape of); the strongest the reader
// takes is kept.
// (Whole values are numbered, so that fields the reader needs distinct,
// such as operations' names, stay distinct.)
const HOW = {
  replace: (v, i) => PAYLOAD + i,
  prepend: (v) => PAYLOAD + " " + v,
  append: (v) => v + PAYLOAD,
};
function withPayload(base, plan) {
  const j = structuredClone(base);
  for (const [k, how] of plan) byPattern.get(k).forEach((p, i) => set(j, p, HOW[how](get(j, p), i)));
  return j;
}

// merlin's reader: does it accept this results.json? (report --format json)
function accepted(j, name) {
  const d = join(work, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, "results.json"), JSON.stringify(j));
  const r = spawnSync(merlin, ["report", d, "--format", "json"], { encoding: "latin1" });
  return r.status === 0;
}

const plan = [];
const refused = [];
for (const k of byPattern.keys()) {
  const how = Object.keys(HOW).find((h) => accepted(withPayload(orig, [[k, h]]), "try"));
  if (how) plan.push([k, how]);
  else refused.push(k);
}
const taken = plan.map(([k]) => k);
console.log(`${plan.length} string fields take the payload (${plan.filter(([, h]) => h === "replace").length} ` +
  `whole), ${refused.length} are refused by the reader: ${refused.join(", ")}`);
check(plan.length >= 20, `at least 20 string fields take a hostile string (took ${plan.length})`);
// The fields the issue names: the build label comes from these.
for (const must of ["runs.[].provenance.compiler", "runs.[].provenance.cflags", "runs.[].profile", "runs.[].target"])
  check(plan.some(([k, h]) => k === must && h === "replace"), `field ${must} takes a whole hostile value`);
// All at once, field by field: a field that the reader takes alone but
// not beside the others (a reference that no longer matches) is left out.
const all = [];
for (const f of plan) if (accepted(withPayload(orig, all.concat([f])), "try")) all.push(f);
console.log(`${all.length} of them at once`);
check(all.length >= plan.length - 5, `nearly every field at once (${all.length} of ${plan.length})`);
const hostile = withPayload(orig, all);
const hdir = join(work, "hostile");
check(accepted(hostile, "hostile"), "the hostile results are accepted");

// Every format of `merlin report`, and compare's two outputs.
const formats = { md: "report.md", html: "report.html", csv: "results.csv", latex: "report.tex",
  "benchmark-action": "benchmark-action.json", junit: "junit.xml", pqm4: "benchmarks-pqm4.md" };
const out = {};
for (const [fmt, file] of Object.entries(formats)) {
  const r = spawnSync(merlin, ["report", hdir, "--format", fmt], { encoding: "latin1" });
  check(r.status === 0, `report --format ${fmt} on hostile strings: exit ${r.status} ${r.stderr}`);
  out[file] = readFileSync(join(hdir, file), "latin1");
  if (fmt === "pqm4") out["pqm4 stdout"] = r.stdout;
}
// Compared with a copy of itself whose first timed operation is twice as
// slow: paired runs, a regression row, every string in both outputs.
const slower = structuredClone(hostile);
const op0 = slower.runs[0].ops.find((o) => o.samples && o.samples.length);
op0.samples = op0.samples.map((x) => x * 2);
for (const k of ["median", "p99", "iqr", "min", "max", "mean", "stddev"]) op0[k] *= 2;
check(accepted(slower, "slower"), "the slower copy is accepted");
const cmp = spawnSync(merlin, ["compare", hdir, join(work, "slower"), "--md", join(work, "compare.md"),
  "--html", join(work, "compare.html")], { encoding: "latin1" });
check(cmp.status === 0 || cmp.status === 1, `compare on hostile strings: exit ${cmp.status} ${cmp.stderr}`);
out["compare.md"] = readFileSync(join(work, "compare.md"), "latin1");
out["compare.html"] = readFileSync(join(work, "compare.html"), "latin1");
out["compare stdout"] = cmp.stdout + cmp.stderr;

// Raw bytes that act: C0 controls but tab and newline, DEL, and in UTF-8
// the C1 control U+0085 (C2 85) and U+202E (E2 80 AE).
const ACTS = /[\x00-\x08\x0b-\x1f\x7f]|\xc2\x85|\xe2\x80\xae/;
for (const [name, text] of Object.entries(out)) {
  const m = ACTS.exec(text);
  check(!m, `${name}: a raw control byte or override (0x${m ? m[0].charCodeAt(0).toString(16) : ""}) at ${m ? m.index : 0}`);
}

// HTML: outside the JSON data block no payload markup survives.
for (const name of ["report.html", "compare.html"]) {
  const t = out[name].replace(/<script type='application\/json' id='merlin-data'>[^]*?<\/script>/, "");
  for (const bad of ["<x-probe", "<img src=x", "window.__pwned='script'</script>"])
    check(!t.includes(bad), `${name}: raw "${bad}" in the page`);
  check(/<meta http-equiv='Content-Security-Policy' content="default-src 'none'; script-src 'sha256-/.test(out[name]),
    `${name}: a Content-Security-Policy with script hashes`);
}
// Markdown: the tag, the link and the pipe of the payload only escaped.
for (const name of ["report.md", "compare.md", "benchmarks-pqm4.md"]) {
  const t = out[name];
  check(!/(^|[^\\])<x-probe/.test(t), `${name}: an unescaped payload tag`);
  check(!/(^|[^\\])\[link(\\)?\]\(/.test(t), `${name}: an unescaped payload link`);
  check(!t.includes("&amp;|") , `${name}: an unescaped payload pipe`);
}
// junit.xml is well-formed XML.
writeFileSync(join(work, "junit.xml"), out["junit.xml"], "latin1");
const xl = spawnSync("xmllint", ["--noout", join(work, "junit.xml")], { encoding: "utf8" });
check(xl.status === 0, `junit.xml is well-formed XML: ${xl.stderr}`);
// benchmark-action.json is JSON.
let ok = true;
try { JSON.parse(Buffer.from(out["benchmark-action.json"], "latin1").toString("utf8")); } catch { ok = false; }
check(ok, "benchmark-action.json parses as JSON");

// In chromium: nothing of the payload runs, its text shows; a raw script
// and handler planted into a copy of the page are blocked by the policy.
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
async function look(file, what, planted) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const violations = [];
  page.on("console", (m) => /Content Security Policy/.test(m.text()) && violations.push(m.text()));
  await page.route("**/*", (r) => (r.request().url().startsWith("file:") ? r.continue() : r.abort()));
  await page.goto("file://" + file);
  await page.waitForSelector("body[data-ready]", { timeout: 30000 });
  // Hover every element, so a handler that slipped through would fire.
  await page.$$eval("body *", (es) => es.forEach((e) => e.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }))));
  await page.waitForTimeout(200);
  const pwned = await page.evaluate(() => window.__pwned);
  check(pwned === undefined, `${what}: the payload ran (${pwned})`);
  if (!planted)
    check(await page.evaluate(() => document.querySelectorAll("x-probe, img[src=x]").length === 0),
      `${what}: payload elements in the document`);
  if (planted) check(violations.length >= 2, `${what}: the policy blocked the planted script and handler (${violations.length} reports)`);
  else check(await page.evaluate(() => document.body.innerText.includes("<x-probe title='t'")),
    `${what}: the payload shows as text`);
  await page.screenshot({ path: join(art, what.replace(/[^a-z0-9]+/gi, "-") + ".png") });
  await page.close();
}
try {
  const page = join(hdir, "report.html");
  await look(page, "hostile report.html");
  await look(join(work, "compare.html"), "hostile compare.html");
  const planted = join(work, "planted.html");
  const page0 = out["report.html"];
  const end = page0.lastIndexOf("</body>");
  writeFileSync(planted, page0.slice(0, end) + "<script>window.__pwned='planted script'</script>" +
    "<img src=x onerror=\"window.__pwned='planted img'\">" + page0.slice(end), "latin1");
  await look(planted, "planted report.html", true);
} finally {
  await browser.close();
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
