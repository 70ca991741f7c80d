#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// The README's picture of the report: report.html of a results directory
// (what `make bench` writes to results/latest) opened in Debian's chromium
// through playwright-core (deps.lock; as the browser test does, never a
// downloaded browser, every request beyond file:// blocked), at 1280 px,
// cut to the page's title and the headline of its first run (the device's),
// written as a PNG: build/report.png, unless asked to update the tracked
// picture of the README (--update-docs: docs/report.png).
// Usage: node scripts/report-screenshot.mjs [--update-docs] [RESULTS_DIR] [OUT.png]
//        (defaults: results/latest, build/report.png)
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const tracked = path.join(root, "docs", "report.png");
let args = process.argv.slice(2);
if (args[0] === "--help" || args[0] === "-h") {
  console.log("usage: node scripts/report-screenshot.mjs [--update-docs] [RESULTS_DIR] [OUT.png]\n" +
    "  report.html of RESULTS_DIR (default results/latest) at 1280 px, the title and the\n" +
    "  first run's headline, as OUT.png (default build/report.png); --update-docs writes\n" +
    "  the README's picture, docs/report.png, which nothing else overwrites");
  process.exit(0);
}
const update = args[0] === "--update-docs";
if (update) args = args.slice(1);
const dir = path.resolve(args[0] ?? path.join(root, "results", "latest"));
const out = path.resolve(args[1] ?? (update ? tracked : path.join(root, "build", "report.png")));
const die = (m) => {
  console.error(`report-screenshot: ${m}`);
  process.exit(1);
};
if (out === tracked && !update) die("docs/report.png is the README's picture: give --update-docs to replace it");
if (update && out !== tracked) die("--update-docs writes docs/report.png: give no OUT.png with it");
fs.mkdirSync(path.dirname(out), { recursive: true });
const page0 = path.join(dir, "report.html");
if (!fs.existsSync(page0)) die(`no report.html in ${dir} (run make bench first, or name a results directory)`);
const require = createRequire(import.meta.url);
let chromium;
try {
  ({ chromium } = require(path.join(root, "third_party/node_modules/playwright-core")));
} catch (e) {
  die(`playwright-core is not in third_party/node_modules (scripts/fetch-deps fetches it): ${e.message}`);
}
if (!fs.existsSync("/usr/bin/chromium")) die("chromium is not installed (scripts/setup test installs it)");

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.route("**/*", (r) => (r.request().url().startsWith("file:") ? r.continue() : r.abort()));
  await page.goto("file://" + page0);
  await page.waitForSelector("body[data-ready]", { timeout: 60000 });
  // down to the end of the first run's job sentences (before its tables)
  const end = await page.evaluate(() => {
    const run = document.querySelector("#headline .run");
    const jobs = run && run.querySelector("ul.jobs");
    const box = (jobs || run || document.body).getBoundingClientRect();
    return Math.ceil(box.bottom + window.scrollY + 16);
  });
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1280, height: Math.min(Math.max(end, 400), 1400) } });
  console.error(`report-screenshot: ${path.relative(root, out) || out} from ${page0}`);
} finally {
  await browser.close();
}
