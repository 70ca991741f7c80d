// SPDX-License-Identifier: Apache-2.0
// The layout check of a merlin page at one width, run in the page
// (page.evaluate(measureLayout)): no text over other text (HTML text and
// the charts' SVG text, where it shows: clipped by the boxes that scroll),
// no table or chart wider than its card (a table in a box that scrolls may
// be, except in the headline), the chart labels Vega cut short (ending in
// "…"), the ratio tables' answer column within the screen, the first
// screen's device headline, and the page's width. html.mjs (report.html,
// the comparison page) and site.mjs (merlin site) check their pages with
// it.
export function measureLayout() {
  const shown = (e) => {
    const s = getComputedStyle(e);
    return s.display !== "none" && s.visibility !== "hidden" && !e.closest("[hidden]");
  };
  const clipOf = (e) => {
    let r = { l: -1e9, t: -1e9, r: 1e9, b: 1e9 };
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (a instanceof SVGElement) continue;
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      r = { l: Math.max(r.l, b.left), t: Math.max(r.t, b.top), r: Math.min(r.r, b.right), b: Math.min(r.b, b.bottom) };
    }
    return r;
  };
  const boxes = [];
  const add = (rect, owner, text, clip) => {
    const l = Math.max(rect.left, clip.l), r = Math.min(rect.right, clip.r);
    const t = Math.max(rect.top, clip.t), b = Math.min(rect.bottom, clip.b);
    if (r - l >= 1 && b - t >= 1) boxes.push({ l, r, t, b, owner, text: text.slice(0, 40) });
  };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode()); ) {
    const p = n.parentElement;
    if (!p || !n.textContent.trim() || p.closest("svg, script, style, #vg-tooltip-element") || !shown(p)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const clip = clipOf(p);
    for (const rect of range.getClientRects()) add(rect, p, n.textContent.trim(), clip);
  }
  for (const t of document.querySelectorAll(".chart svg text")) {
    if (!t.textContent.trim() || !shown(t) || t.getAttribute("opacity") === "0" || t.getAttribute("fill-opacity") === "0") continue;
    add(t.getBoundingClientRect(), t, t.textContent.trim(), clipOf(t));
  }
  const overlaps = [];
  const rows = new Map();
  boxes.forEach((b, i) => {
    for (let y = Math.floor(b.t / 64); y <= Math.floor(b.b / 64); y++) {
      const row = rows.get(y) || [];
      for (const j of row) {
        const c = boxes[j];
        const ix = Math.min(b.r, c.r) - Math.max(b.l, c.l), iy = Math.min(b.b, c.b) - Math.max(b.t, c.t);
        if (c.owner !== b.owner && ix > 1 && iy > 2) overlaps.push(`"${b.text}" over "${c.text}" at (${Math.round(b.l)}, ${Math.round(b.t + scrollY)})`);
      }
      row.push(i);
      rows.set(y, row);
    }
  });
  const wide = [];
  for (const t of document.querySelectorAll("table, .scroll, .chart svg")) {
    if (!shown(t) || t.closest("#vg-tooltip-element") || t.parentElement.closest("svg")) continue;
    if (t.tagName === "TABLE" && t.parentElement.closest(".scroll") && !t.closest("#headline")) continue;
    const card = t.parentElement.closest(".chart, .run, section") || document.body;
    const cb = card.getBoundingClientRect(), tb = t.getBoundingClientRect(), cs = getComputedStyle(card);
    const l = cb.left + parseFloat(cs.borderLeftWidth), r = cb.right - parseFloat(cs.borderRightWidth);
    if (tb.left < l - 1 || tb.right > r + 1) {
      const where = t.closest(".chart") ? "chart " + t.closest(".chart").dataset.chart : (t.closest("[id]") || {}).id || t.tagName;
      wide.push(`${t.tagName.toLowerCase()} in ${where}: ${Math.round(tb.width)} px in a card of ${Math.round(r - l)} px`);
    }
  }
  // Names cut short: Vega ends a label it cuts with an ellipsis.
  const cut = [...document.querySelectorAll(".chart svg text")].filter((t) => shown(t) && /…$/.test(t.textContent)).map((t) => t.textContent);
  // The ratio tables: the answer (ratio of medians) within the screen.
  const hidden = [];
  for (const t of document.querySelectorAll("table[data-table=ratios]")) {
    if (!shown(t)) continue;
    const th = [...t.querySelectorAll("th")].find((h) => /^ratio of medians/.test(h.textContent));
    const box = t.getBoundingClientRect();
    if (!th || th.getBoundingClientRect().right > Math.min(box.right, window.innerWidth) + 1 || t.scrollWidth > t.clientWidth + 1)
      hidden.push(`${t.previousElementSibling ? t.previousElementSibling.textContent : "a table"}: ${t.scrollWidth} px in ${t.clientWidth}`);
  }
  // The first screen: the device's headline, in estimated cycles and
  // milliseconds, its sentences within the screen's width.
  const run = document.querySelector("#headline .run");
  const job = run && run.querySelector("li.job");
  const first = job
    ? { text: job.textContent, top: job.getBoundingClientRect().top + scrollY, right: run.getBoundingClientRect().right, over: [...run.querySelectorAll("li, p, h3")].filter((e) => e.scrollWidth > e.clientWidth + 1).length }
    : null;
  return { boxes: boxes.length, overlaps: [...new Set(overlaps)], wide, doc: document.documentElement.scrollWidth, cut, hidden, first };
}
