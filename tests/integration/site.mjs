// SPDX-License-Identifier: Apache-2.0
// The site of a results database (merlin site, docs/results.md "The
// site") in a real browser: Debian's chromium driven by playwright-core
// (deps.lock), every page opened from file:// with every other request
// blocked and counted. Checks: no console error and no request beyond
// file:// on any page; the tables of each core hold the figures of the
// runs' results.json, each with its provenance; the history charts have
// marks, a legend and axis titles, and the changed operation is flagged;
// the cross-core table; no text over other text, no table or chart wider
// than its card, no chart label cut short, at 390, 1280 and 1920 px.
//   node site.mjs SITE ART NEWER   NEWER: results.json of the last import,
//                                  whose one changed operation is CHANGED
import { createRequire } from "node:module";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureLayout } from "./page_layout.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const { chromium } = require(join(root, "third_party/node_modules/playwright-core"));
const [site, art, newer, changed] = process.argv.slice(2);
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

async function open(browser, name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  const blocked = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/*", (r) => {
    const u = r.request().url();
    if (u.startsWith("file:")) return r.continue();
    blocked.push(u);
    return r.abort();
  });
  await page.goto("file://" + join(site, name));
  await page.waitForSelector("body[data-ready]", { timeout: 30000 });
  check((await page.getAttribute("body", "data-ready")) === "1", `${name}: rendered`);
  return { page, errors, blocked };
}

async function layout(page, name) {
  for (const w of [1280, 1920, 390]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.waitForFunction((x) => document.body.getAttribute("data-width") === String(x) || !document.querySelector(".chart"), w, { timeout: 30000 });
    await page.waitForTimeout(300);
    await page.evaluate(() => window.scrollTo(0, 0));
    const r = await page.evaluate(measureLayout);
    check(r.boxes > 0 && r.overlaps.length === 0, `${name} at ${w} px: no text over other text among ${r.boxes} boxes (${r.overlaps.slice(0, 4).join("; ")})`);
    check(r.wide.length === 0, `${name} at ${w} px: no table or chart wider than its card (${r.wide.slice(0, 4).join("; ")})`);
    check(r.cut.length === 0, `${name} at ${w} px: no chart label cut short (${r.cut.slice(0, 4).join("; ")})`);
    check(r.doc <= w, `${name} at ${w} px: the page is ${r.doc} px wide`);
    if (w !== 1920) await page.screenshot({ path: join(art, `${name.replace(/\.html$/, "")}-${w}.png`) });
  }
}

async function done(p, name) {
  await layout(p.page, name);
  check(p.errors.length === 0, `${name}: no console error (${p.errors.slice(0, 3).join(" / ")})`);
  check(p.blocked.length === 0, `${name}: no request beyond file:// (${p.blocked.slice(0, 3).join(" ")})`);
  await p.page.close();
}

// A core's page: every KEM and signature figure of the newest run is in
// the tables, with its provenance.
async function corePage(browser, name, run) {
  const p = await open(browser, name);
  const cells = await p.page.$$eval("table.site tbody tr", (trs) =>
    trs.map((tr) => ({ cells: [...tr.cells].map((td) => ({ text: td.textContent, v: td.dataset.v, title: td.title })) })),
  );
  check(cells.length > 0, `${name}: the tables have rows`);
  const heads = await p.page.$$eval("section h3", (hs) => hs.map((h) => h.textContent));
  check(heads.some((h) => /Key encapsulation schemes: speed/.test(h)) && heads.some((h) => /Signature schemes: speed/.test(h)), `${name}: KEM and signature tables (${heads.slice(0, 6).join(" | ")})`);
  const titled = cells.flatMap((r) => r.cells).filter((c) => c.v !== undefined);
  check(titled.length > 0 && titled.every((c) => /^run \d+ \([0-9a-f]{12}\) from .*merlin .*source /.test(c.title)), `${name}: every figure has its provenance`);
  // ML-KEM-512 keygen on wolfCrypt: the newest run's median, in its unit
  const o = run.ops.find((x) => x.alg === "ml-kem-512" && x.op === "keygen" && x.backend === "wolfcrypt");
  const unit = run.provenance.unit;
  const table = await p.page.$$eval("section h3", (hs, u) => {
    const h = hs.find((x) => x.textContent === `Key encapsulation schemes: speed [${u}]` || x.textContent.startsWith("Key encapsulation schemes: speed") && x.textContent.includes(u));
    const t = h && h.nextElementSibling.querySelector("table");
    return t ? [...t.tBodies[0].rows].map((tr) => [...tr.cells].map((c) => c.dataset.v || c.textContent)) : [];
  }, unit);
  const row = table.find((r) => r[0] === "ml-kem-512" && r[1].startsWith("wolfcrypt"));
  check(o && row && Number(row[2]) === o.median, `${name}: ml-kem-512 keygen (wolfcrypt) is ${o && o.median} ${unit} as in results.json (${row && row[2]})`);
  await done(p, name);
}

async function history(browser) {
  const p = await open(browser, "history.html");
  const info = await p.page.$$eval(".chart", (cs) =>
    cs.map((c) => ({
      id: c.dataset.chart,
      marks: c.querySelectorAll("svg g.role-mark > *").length,
      legends: c.querySelectorAll("svg g.role-legend").length,
      titles: [...c.querySelectorAll("svg g.role-axis-title text")].map((t) => t.textContent).filter((t) => t),
    })),
  );
  check(info.length > 0, "history.html: has charts");
  for (const c of info) {
    check(c.marks > 0, `history chart ${c.id} has marks`);
    check(c.legends > 0, `history chart ${c.id} has a legend`);
    check(c.titles.length >= 2, `history chart ${c.id} has axis titles (${c.titles.join(" | ")})`);
  }
  const flagged = await p.page.$$eval("tr.regressed", (trs) => trs.map((tr) => tr.cells[1].textContent));
  check(flagged.length > 0 && flagged.every((t) => t.startsWith(changed)), `history.html: the changed operation ${changed} and only it is flagged (${flagged.join(" | ")})`);
  const diamonds = await p.page.$$eval(".chart", (cs) => cs.map((c) => c.querySelectorAll("svg path[aria-roledescription='point'], svg g.mark-symbol path").length));
  check(diamonds.some((n) => n > 0), "history.html: points are drawn");
  await done(p, "history.html");
}

async function cores(browser) {
  const p = await open(browser, "cores.html");
  const heads = await p.page.$$eval("table.site thead th", (ths) => ths.map((t) => t.textContent));
  check(heads.some((h) => /qemu-m4 \(cortex-m4\)/.test(h)), `cores.html: a qemu-m4 column (${heads.join(" | ")})`);
  const nums = await p.page.$$eval("table.site td[data-v]", (tds) => tds.length);
  check(nums > 0, "cores.html: estimated cycles and times");
  await done(p, "cores.html");
}

const run = JSON.parse(readFileSync(newer, "utf8")).runs.find((r) => r.target === "qemu-m4");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const pages = readdirSync(site).filter((f) => f.endsWith(".html"));
  check(["index.html", "cores.html", "history.html", "qemu-m4.html", "host.html"].every((f) => pages.includes(f)), `the site's pages (${pages.join(" ")})`);
  const idx = await open(browser, "index.html");
  const runs = await idx.page.$$eval("table.site tbody tr", (trs) => trs.length);
  check(runs >= 3, `index.html: the runs (${runs})`);
  await done(idx, "index.html");
  await corePage(browser, "qemu-m4.html", run);
  await history(browser);
  await cores(browser);
} catch (e) {
  check(false, e.stack || String(e));
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
