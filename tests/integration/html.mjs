// SPDX-License-Identifier: Apache-2.0
// report.html and the `merlin compare --html` page in a real browser:
// Debian's chromium (never a downloaded one) driven by playwright-core
// (deps.lock), the page opened from file:// with every other request
// blocked and counted. Checks: no console error, every chart has marks, a
// legend and axis titles; a filter changes what is drawn; a tooltip shows
// the hovered value; the headline and the tables carry the numbers of
// results.json and report.md. Screenshots of each section go to ART.
//   node html.mjs report DIR ART [matrix]   DIR: a results directory
//   node html.mjs compare PAGE ART
import { createRequire } from "node:module";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureLayout } from "./page_layout.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const { chromium } = require(join(root, "third_party/node_modules/playwright-core"));
const [mode, where, art, variant] = process.argv.slice(2);
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

// report.md's number format (host/report/format.c), written again here.
// toFixed with C's printf rounding: exactly halfway goes to the even
// neighbour (1538.5 -> 1538), as report.md and the page show it.
function fixedLikeC(a, dec) {
  const s = a.toFixed(dec);
  if (a >= 1e21) return s;
  const exact = a.toFixed(100);
  const cut = exact.indexOf(".") + 1 + dec;
  if (exact[cut] !== "5" || !/^0*$/.test(exact.slice(cut + 1))) return s;
  const down = exact.slice(0, dec ? cut : cut - 1);
  return Number(down[down.length - 1]) % 2 === 0 ? down : s;
}

function fmt(v) {
  const a = Math.abs(v);
  const dec = a === Math.floor(a) || a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  const [i, f] = fixedLikeC(a, dec).split(".");
  return (v < 0 ? "-" : "") + i.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (f ? "." + f : "");
}

async function open(browser, file) {
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
  await page.goto("file://" + file);
  await page.waitForSelector("body[data-ready]", { timeout: 30000 });
  check((await page.getAttribute("body", "data-ready")) === "1", "the page's charts rendered");
  return { page, errors, blocked };
}

// Marks, legend and axis titles of every chart.
async function charts(page) {
  const info = await page.$$eval(".chart", (cs) =>
    cs.map((c) => ({
      id: c.dataset.chart,
      marks: c.querySelectorAll("svg g.role-mark > *").length,
      legends: c.querySelectorAll("svg g.role-legend").length,
      titles: [...c.querySelectorAll("svg g.role-axis-title text")].map((t) => t.textContent).filter((t) => t),
      // a faceted chart names each facet in a header instead of an axis title
      headers: [...c.querySelectorAll("svg g.role-row-header text, svg g.role-title text")].map((t) => t.textContent).filter((t) => t),
    })),
  );
  check(info.length > 0, "the page has charts");
  for (const c of info) {
    check(c.marks > 0, `chart ${c.id} has marks`);
    check(c.legends > 0, `chart ${c.id} has a legend`);
    check(c.titles.length >= 2 || (c.titles.length >= 1 && c.headers.length >= 1), `chart ${c.id} has axis titles or facet headers (${c.titles.join(" | ")}; ${c.headers.join(" | ")})`);
  }
  return info;
}

const marks = (page, id) => page.$eval(`.chart[data-chart="${id}"]`, (c) => c.querySelectorAll("svg g.role-mark > *").length);

async function toggle(page, dim, value, on) {
  const n = await page.getAttribute("body", "data-filtered");
  await page.setChecked(`#filters fieldset[data-dim="${dim}"] input[value="${value}"]`, on);
  await page.waitForFunction((v) => document.body.getAttribute("data-filtered") !== v, n);
}

async function shots(page, prefix) {
  // the filter bar stays at the top of the window: not over the pictures
  await page.addStyleTag({ content: "#filters { position: static !important; }" });
  const secs = await page.$$("#headline, #filters, section.target .chart, #ratios, #workflows, #fits, #devices, #operations, #provenance, #summary");
  let i = 0;
  for (const s of secs) {
    const id = (await s.getAttribute("id")) || (await s.getAttribute("data-chart"));
    await s.scrollIntoViewIfNeeded();
    await s.screenshot({ path: join(art, `${prefix}-${String(i++).padStart(2, "0")}-${id}.png`) });
  }
  return i;
}

// The headline against results.json and report.md.
async function headline(page, res, md) {
  const cells = await page.$$eval("#headline .hl[data-kind=ratio]", (cs) =>
    cs.map((c) => {
      const p99 = c.querySelector("data.p99-ratio");
      return { ...c.dataset, value: Number(c.querySelector("data.ratio").value), text: c.querySelector("data.ratio").textContent, p99: p99 ? Number(p99.value) : null, p99Text: p99 ? p99.textContent : null };
    }),
  );
  check(cells.length > 0, "the headline has post-quantum/classical ratios");
  const cost = (run, alg, ops, backend, k = "median") =>
    ops.split(" ").reduce((s, op) => s + run.ops.find((o) => o.alg === alg && o.op === op && o.backend === backend)[k], 0);
  let mdHits = 0, p99s = 0;
  for (const c of cells) {
    const run = res.runs[Number(c.run)];
    const want = cost(run, c.pqAlg, c.pqOps, c.pqBackend) / cost(run, c.refAlg, c.refOps, c.refBackend);
    check(Math.abs(c.value / want - 1) < 1e-9, `headline ${c.pqLabel} (${c.pqBackend}) / ${c.refLabel}: ${c.value}, results.json gives ${want}`);
    check(c.text === want.toFixed(2) + "×", `headline shows ${c.text} for ${want}`);
    // Signatures (verify and sign) give the ratio of p99s too.
    const sig = c.refOps === "sign" || c.refOps === "verify";
    check(sig === (c.p99 !== null), `headline ${c.pqLabel} ${c.pqOps}: a p99 ratio ${sig ? "for a signature" : "only for signatures"}`);
    if (c.p99 !== null) {
      const w99 = cost(run, c.pqAlg, c.pqOps, c.pqBackend, "p99") / cost(run, c.refAlg, c.refOps, c.refBackend, "p99");
      check(Math.abs(c.p99 / w99 - 1) < 1e-9 && c.p99Text === w99.toFixed(2) + "×", `headline ${c.pqLabel} ${c.pqOps} p99 ratio ${c.p99Text}, results.json gives ${w99}`);
      p99s++;
    }
    const row = `| ${c.pqLabel} | ${c.pqBackend} | ${c.refLabel} | ${c.refBackend} | ${want.toFixed(2)} |`;
    if (md.includes(row)) mdHits++;
    else check(false, `report.md's ratio tables have no row ${row}`);
  }
  check(mdHits === cells.length, `every headline ratio is in report.md's ratio tables (${mdHits} of ${cells.length})`);
  check(p99s > 0, "the headline gives ratios of p99s for signatures");
  const wfs = await page.$$eval("#headline .hl[data-kind=workflow]", (cs) =>
    cs.map((c) => ({ ...c.dataset, value: Number(c.querySelector("data.time").value), text: c.querySelector("data.time").textContent })),
  );
  for (const w of wfs) {
    const run = res.runs[Number(w.run)];
    const a = run.workflows.find((x) => x.variant === w.variant && x.backend === w.backend);
    const b = run.workflows.find((x) => x.variant === w.refVariant && x.backend === w.refBackend);
    const want = a.median / b.median;
    check(Math.abs(w.value / want - 1) < 1e-9 && w.text === want.toFixed(2) + "×", `headline workflow ${w.variant} (${w.backend}): ${w.text}, results.json gives ${want}`);
    const re = new RegExp(`\\| provision \\| ${w.variant} \\| ${w.backend.replace(/\+/g, "\\+")} \\|.*\\| ${w.refBackend} \\| ${want.toFixed(2)} \\|`);
    check(re.test(md), `report.md's workflow table has ${w.variant} (${w.backend}) at ${want.toFixed(2)}`);
  }
  return cells.length + wfs.length;
}

// The post-quantum/classical jobs of host/analysis/pairs.c, written again
// here: the headline's sentence for a job names its cheapest post-quantum
// and its cheapest classical choice.
const KE = [["ecdh-p256", "keygen shared"], ["x25519", "keygen shared"]];
const CONTESTS = [
  { pq: [["ml-kem-512", "keygen decaps"], ["ml-kem-768", "keygen decaps"]], ref: KE },
  { pq: [["ml-kem-512", "encaps"], ["ml-kem-768", "encaps"]], ref: KE },
  { pq: [["ml-dsa-44", "verify"], ["ml-dsa-65", "verify"]], ref: [["ecdsa-p256", "verify"], ["ed25519", "verify"]] },
  { pq: [["ml-dsa-44", "sign"], ["ml-dsa-65", "sign"]], ref: [["ecdsa-p256", "sign"], ["ed25519", "sign"]] },
];

// A job's cost in run by measure ("median", or "est_cycles": the cycle
// model's estimate); null when an operation lacks it.
function jobCost(run, alg, ops, backend, measure) {
  let sum = 0;
  for (const op of ops.split(" ")) {
    const o = run.ops.find((x) => x.alg === alg && x.op === op && x.backend === backend && x.n > 0);
    const v = o && (measure === "median" ? o.median : o.est_cycles && o.est_cycles.median);
    if (typeof v !== "number") return null;
    sum += v;
  }
  return sum;
}

// The sentences that open each run of the headline, devices first: each
// job's figures against results.json, and that they are the cheapest.
async function jobs(page, res) {
  const runs = await page.$$eval("#headline .run", (rs) => rs.map((r) => Number(r.dataset.run)));
  const device = (r) => /^cortex-/.test(res.runs[r].provenance.core || "");
  const firstHost = runs.findIndex((r) => !device(r));
  check(firstHost < 0 || runs.slice(firstHost).every((r) => !device(r)), `the headline puts the devices first (${runs.map((r) => res.runs[r].target).join(", ")})`);
  const items = await page.$$eval("#headline .hl[data-kind=job]", (ls) =>
    ls.map((l) => ({ ...l.dataset, pq: Number(l.querySelector("data.pq-cost").value), ref: Number(l.querySelector("data.ref-cost").value), ratio: Number(l.querySelector("data.ratio").value), text: l.textContent })),
  );
  check(items.length > 0 || res.runs.every((r) => !r.ops.some((o) => o.alg === "ml-kem-512")), `the headline has a sentence per job (${items.length})`);
  const close = (a, b) => Math.abs(a / b - 1) < 1e-9;
  for (const it of items) {
    const run = res.runs[Number(it.run)];
    const m = it.measure;
    const pq = jobCost(run, it.pqAlg, it.pqOps, it.pqBackend, m);
    const ref = jobCost(run, it.refAlg, it.refOps, it.refBackend, m);
    check(pq !== null && ref !== null && close(it.pq, pq) && close(it.ref, ref) && close(it.ratio, pq / ref), `${run.target} ${it.pqLabel} (${it.pqBackend}) against ${it.refLabel} (${it.refBackend}): ${it.pq} / ${it.ref} ${m}, results.json ${pq} / ${ref}`);
    const c = CONTESTS[Number(it.contest)];
    const backends = [...new Set(run.ops.map((o) => o.backend))];
    for (const [side, list, got] of [["post-quantum", c.pq, it.pq], ["classical", c.ref, it.ref]])
      for (const [alg, ops] of list)
        for (const b of backends) {
          const v = jobCost(run, alg, ops, b, m);
          if (v !== null && v < got * (1 - 1e-12)) check(false, `${run.target}: the ${side} ${alg} ${ops} on ${b} (${v}) is cheaper than the sentence's (${got})`);
        }
    check(m !== "est_cycles" || /est\. cycles \([0-9.,]+ (µs|ms|s)/.test(it.text), `${run.target}: an estimate gives cycles and time (${it.text.slice(0, 120)})`);
  }
  return items.length;
}

// The page at 1280, 1920 and 390 px (a phone): measureLayout at each, and
// the first screen at 1280 and 390 px for a reviewer (ART/layout-*.png).
async function layout(page, prefix) {
  for (const w of [1280, 1920, 390]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.waitForFunction((x) => document.body.getAttribute("data-width") === String(x), w, { timeout: 30000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const r = await page.evaluate(measureLayout);
    check(r.boxes > 0 && r.overlaps.length === 0, `${prefix} at ${w} px: no text over other text among ${r.boxes} boxes (${r.overlaps.slice(0, 4).join("; ")})`);
    check(r.wide.length === 0, `${prefix} at ${w} px: no table or chart wider than its card (${r.wide.slice(0, 4).join("; ")})`);
    check(r.doc <= w, `${prefix} at ${w} px: the page is ${r.doc} px wide`);
    check(r.cut.length === 0, `${prefix} at ${w} px: no chart label cut short (${r.cut.length}: ${r.cut.slice(0, 4).join(" | ")})`);
    check(r.hidden.length === 0, `${prefix} at ${w} px: the ratio tables' ratios are on screen (${r.hidden.slice(0, 2).join("; ")})`);
    if (prefix === "report")
      check(
        r.first && /est\. cycles \([0-9.,]+ ms/.test(r.first.text) && r.first.top < 900 && r.first.right <= w && r.first.over === 0,
        `${prefix} at ${w} px: the first screen gives the device's headline in estimated cycles and ms, nothing cut (${r.first ? r.first.text.slice(0, 100) + ", top " + Math.round(r.first.top) + ", right " + Math.round(r.first.right) + ", " + r.first.over + " overflowing" : "none"})`,
      );
    await page.screenshot({ path: join(art, `layout-${prefix}-${w}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.waitForFunction(() => document.body.getAttribute("data-width") === "1280", null, { timeout: 30000 });
}

// Every number of the operations table against results.json.
async function opsTable(page, res) {
  const rows = await page.$$eval("table[data-table=ops] tbody tr", (trs) =>
    trs.map((tr) => ({ run: Number(tr.dataset.run), op: Number(tr.dataset.op), cells: [...tr.querySelectorAll("td[data-v]")].map((td) => [td.dataset.k, td.dataset.v, td.textContent]) })),
  );
  const nops = res.runs.reduce((s, r) => s + r.ops.length, 0);
  check(rows.length === nops, `the operations table has ${rows.length} rows, results.json ${nops} operations`);
  let bad = 0;
  let n = 0;
  for (const r of rows) {
    const o = res.runs[r.run].ops[r.op];
    for (const [k, v, text] of r.cells) {
      const want = k.split(".").reduce((x, p) => x && x[p], o);
      n++;
      if (Number(v) !== want || text !== fmt(want)) {
        if (bad++ < 5) console.log(`  ${o.alg} ${o.op} ${k}: table ${v} "${text}", results.json ${want}`);
      }
    }
  }
  check(n > 0 && bad === 0, `${n} numbers of the operations table equal results.json (${bad} differ)`);
}

// Hover the first mark of the bar chart (or, without one, of the cost
// versus payload chart): the tooltip must show that operation's median.
async function tooltip(page, res) {
  const box = (await page.$('.chart[data-kind="ops"]')) || (await page.$('.chart[data-kind="payload"]'));
  const id = await box.getAttribute("data-chart");
  const kind = await box.getAttribute("data-kind");
  const target = await box.evaluate((c) => c.closest("section.target").dataset.target);
  const mark = await box.$(kind === "ops" ? "svg g.mark-rect.role-mark > path" : "svg g.mark-symbol.role-mark > path");
  await mark.scrollIntoViewIfNeeded();
  const bb = await mark.boundingBox();
  await page.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2);
  await page.waitForSelector("#vg-tooltip-element.visible", { timeout: 5000 });
  const tip = await page.$$eval("#vg-tooltip-element tr", (trs) => Object.fromEntries(trs.map((tr) => [tr.cells[0].textContent.replace(/:$/, ""), tr.cells[1].textContent])));
  await page.screenshot({ path: join(art, `tooltip-${id}.png`), clip: { x: 0, y: Math.max(0, bb.y - 150), width: 1280, height: 400 } });
  const name = tip.operation || tip["operation (backend)"];
  const [alg, op] = name.split(" ");
  const backend = kind === "ops" ? tip.backend.split(" ")[0] : name.replace(/^.*\(/, "").split(/[ )]/)[0];
  const bytes = kind === "ops" ? null : Number(tip["payload (bytes)"]);
  const runs = res.runs.filter((r) => r.target === target);
  // a device's chart in estimated cycles gives the model's medians
  const est = (await box.getAttribute("data-measure")) === "estimated cycles";
  const unit = est ? "est. cycles" : runs[0].provenance.unit;
  const want = runs.flatMap((r) => r.ops.filter((o) => o.alg === alg && o.op === op && o.backend === backend && o.bytes === bytes).map((o) => fmt(est ? o.est_cycles.median : o.median)));
  const got = tip[`median (${unit})`];
  check(want.includes(got), `the tooltip of ${name} shows median ${got}; results.json has ${want.join(" or ")}`);
  await page.mouse.move(0, 0);
}

async function report(browser, dir) {
  const res = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
  const md = readFileSync(join(dir, "report.md"), "utf8");
  const { page, errors, blocked } = await open(browser, join(dir, "report.html"));
  await charts(page);
  // Halfway values: the page rounds them as C's printf does (format.c).
  const ties = await page.evaluate(() => [1538.5, 1539.5, 12.25, 0.0625].map(window.merlinFormat).join(" "));
  check(ties === "1,538 1,540 12.2 0.062", `the page formats halfway values as report.md does (${ties})`);
  const prefix = variant || "report";
  await tooltip(page, res);
  // A filter: drop one backend, the bar chart loses its bars; back again.
  const ops = await page.$eval('.chart[data-kind="ops"], .chart[data-kind="payload"]', (c) => c.dataset.chart);
  const before = await marks(page, ops);
  const backend = await page.$$eval('#filters fieldset[data-dim="backend"] input', (i) => (i[0] ? i[0].value : null));
  check(backend !== null || variant === "matrix", "the page filters by backend");
  if (backend !== null) {
    await toggle(page, "backend", backend, false);
    const after = await marks(page, ops);
    check(after < before, `unchecking backend ${backend} removes marks from ${ops} (${before} -> ${after})`);
    await toggle(page, "backend", backend, true);
    check((await marks(page, ops)) === before, `checking ${backend} again restores ${ops}`);
  }
  // The log/linear switch draws the chart again with the other scale.
  const sw = await page.$(`.chart[data-chart="${ops}"] button.scale`);
  if (sw) {
    const label = await sw.textContent();
    await sw.click();
    await page.waitForFunction(([id, l]) => document.querySelector(`.chart[data-chart="${id}"] button.scale`).textContent !== l, [ops, label]);
    await page.waitForTimeout(300);
    check((await marks(page, ops)) === before, `${ops} after the scale switch has its marks`);
    await sw.click();
  }
  // A device's charts: estimated cycles, instructions a click away.
  const dev = await page.$$eval(".chart[data-measure]", (cs) => cs.map((c) => c.dataset.chart));
  const cyc = new Set(res.runs.filter((r) => /^cortex-/.test(r.provenance.core || "") && r.ops.some((o) => o.est_cycles)).map((r) => r.target));
  const all = await page.$$eval("section.target .chart", (cs) => cs.map((c) => ({ id: c.dataset.chart, kind: c.dataset.kind, measure: c.dataset.measure, target: c.closest("section.target").dataset.target })));
  const not = all.filter((c) => cyc.has(c.target) && c.kind !== "workflows" && c.measure !== "estimated cycles").map((c) => c.id);
  check(cyc.size === 0 || (dev.length > 0 && not.length === 0), `a device with the cycle model has its charts in estimated cycles (${dev.join(", ")}; not: ${not.join(", ")})`);
  if (dev.length) {
    const id = dev.find((d) => d.startsWith("ops-")) || dev[0];
    const sel = `.chart[data-chart="${id}"]`;
    const title = () => page.$$eval(`${sel} svg g.role-axis-title text`, (t) => t.map((x) => x.textContent).join(" | "));
    const t0 = await title();
    const m0 = await marks(page, id);
    check(/est\. cycles/.test(t0) && (await page.getAttribute(sel, "data-measure")) === "estimated cycles", `${id} is in estimated cycles (${t0})`);
    await page.click(`${sel} button.measure`);
    await page.waitForFunction((s) => document.querySelector(s).dataset.measure !== "estimated cycles", sel);
    await page.waitForFunction(([s, t]) => [...document.querySelectorAll(`${s} svg g.role-axis-title text`)].map((x) => x.textContent).join(" | ") !== t, [sel, t0]);
    const t1 = await title();
    check(/instructions/.test(t1) && (await marks(page, id)) === m0, `${id} switches to instructions with its marks (${t1})`);
    await page.click(`${sel} button.measure`);
    await page.waitForFunction(([s, t]) => [...document.querySelectorAll(`${s} svg g.role-axis-title text`)].map((x) => x.textContent).join(" | ") === t, [sel, t0]);
  }
  if (variant === "matrix") {
    for (const [dim, vals] of [["cc", ["clang", "gcc"]], ["opt", ["-O2", "-Os"]]]) {
      const got = await page.$$eval(`#filters fieldset[data-dim="${dim}"] input`, (is) => is.map((i) => i.value).sort());
      check(JSON.stringify(got) === JSON.stringify(vals), `the matrix page filters by ${dim}: ${got.join(", ")}`);
    }
    const all = await page.$$eval("table[data-table=ops] tbody tr:not([hidden])", (t) => t.length);
    await toggle(page, "cc", "clang", false);
    const gcc = await page.$$eval("table[data-table=ops] tbody tr:not([hidden])", (t) => t.length);
    const want = res.runs.filter((r) => / GNU /.test(r.provenance.compiler)).reduce((s, r) => s + r.ops.length, 0);
    check(gcc === want && gcc < all, `without clang the table shows the gcc rows (${gcc}, results.json ${want}, of ${all})`);
    const m = await marks(page, ops);
    check(m < before, `without clang ${ops} draws fewer marks (${before} -> ${m})`);
    await shots(page, prefix + "-gcc-only");
    await toggle(page, "cc", "clang", true);
  }
  if (variant !== "matrix") {
    const hl = await headline(page, res, md);
    console.log(`headline: ${hl} figures checked`);
  }
  console.log(`headline: ${await jobs(page, res)} job sentences checked`);
  await layout(page, prefix);
  await opsTable(page, res);
  const n = await shots(page, prefix);
  console.log(`screenshots: ${n} in ${art}`);
  check(errors.length === 0, `no console error (${errors.slice(0, 3).join(" / ")})`);
  check(blocked.length === 0, `no request beyond file:// (${blocked.slice(0, 3).join(" ")})`);
  await page.close();
}

async function compare(browser, file) {
  const { page, errors, blocked } = await open(browser, file);
  await charts(page);
  const reg = await page.$$eval("tr.regressed", (t) => t.map((r) => r.cells[0].textContent));
  check(reg.some((l) => /^ml-kem-512 keygen/.test(l)), `the regression is highlighted (${reg.join(", ")})`);
  const imp = await page.$$eval("tr.improved", (t) => t.map((r) => r.cells[0].textContent));
  check(imp.some((l) => /^ecdh-p256 shared/.test(l)), `the improvement is highlighted (${imp.join(", ")})`);
  const order = await page.$$eval("section", (s) => s.map((x) => x.id));
  check(order[0] === "provenance", `provenance comes first (${order.join(", ")})`);
  const prov = await page.textContent("#provenance");
  check(/cflags/.test(prov) && /-O3/.test(prov), "the provenance difference (cflags) is listed");
  // one group of rows per run: a table each, and a facet each in the chart
  const groups = await page.$$eval("#operations h3[data-group]", (h) => h.map((x) => x.textContent));
  const facets = await page.$$eval('.chart[data-kind="change"] svg g.role-title text', (t) => t.map((x) => x.textContent));
  check(groups.length > 0 && facets.length > 0 && facets.every((f) => groups.some((g) => g.startsWith(f))) && new Set(facets).size === facets.length, `a table per run, a chart facet per run with a change (${groups.join(" | ")}; ${facets.join(" | ")})`);
  const first = await page.$$eval("#operations table[data-table=compare]", (ts) => ts.map((t) => (t.tBodies[0].rows[0] || {}).dataset || {}).map((d) => d.verdict));
  check(first.includes("REGRESSED"), `regressions lead their table (${first.join(", ")})`);
  await layout(page, "compare");
  await shots(page, "compare");
  check(errors.length === 0, `no console error (${errors.slice(0, 3).join(" / ")})`);
  check(blocked.length === 0, `no request beyond file:// (${blocked.slice(0, 3).join(" ")})`);
  await page.close();
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  if (mode === "report") await report(browser, where);
  else if (mode === "compare") await compare(browser, where);
  else throw new Error("usage: html.mjs report DIR ART [matrix] | compare PAGE ART");
} catch (e) {
  check(false, e.stack || String(e));
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
