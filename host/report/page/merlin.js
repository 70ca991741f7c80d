// SPDX-License-Identifier: Apache-2.0
// The script of report.html and of `merlin compare --html` pages
// (docs/report-html.md). It draws nothing itself: the C side
// (host/report/html_charts.c) writes the data and a Vega-Lite
// specification per chart, which vega-embed renders; this script wires
// the filters, the log/linear switches, the generic tables built from the
// embedded results.json, and table sorting. Every value it shows comes
// from the embedded data; it computes no statistic.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("merlin-data").textContent);
  const DIMS = [
    ["target", "target"],
    ["profile", "profile"],
    ["backend", "backend"],
    ["alg", "algorithm"],
    ["cc", "compiler"],
    ["opt", "optimisation"],
  ];
  const selected = {}; // dimension -> Set of selected values (absent: all)
  const views = []; // {chart, el, view, log}
  const redraws = []; // tables drawn again when the filters change

  // a.toFixed(dec) with C's printf rounding (host/report/format.c): a value
  // exactly halfway goes to the even neighbour (1538.5 -> 1538), where
  // toFixed goes up; report.md and the page then show the same figure.
  function fixedLikeC(a, dec) {
    const s = a.toFixed(dec);
    if (a >= 1e21) return s;
    const exact = a.toFixed(100); // every digit of the double (ECMA-262 toFixed)
    const cut = exact.indexOf(".") + 1 + dec;
    if (exact[cut] !== "5" || !/^0*$/.test(exact.slice(cut + 1))) return s;
    const down = exact.slice(0, dec ? cut : cut - 1);
    return Number(down[down.length - 1]) % 2 === 0 ? down : s;
  }

  // The number format of report.md (host/report/format.c,
  // mh_format_number): thousands separators; no decimals for integers and
  // values from 1,000 up, one from 10, two from 1, three below.
  function fmt(v) {
    if (typeof v !== "number") return v == null ? "" : String(v);
    if (!isFinite(v)) return String(v);
    const a = Math.abs(v);
    const dec = a === Math.floor(a) || a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
    const s = fixedLikeC(a, dec);
    const [i, f] = s.split(".");
    const neg = v < 0 && /[1-9]/.test(s) ? "-" : "";
    return neg + i.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (f ? "." + f : "");
  }
  window.merlinFormat = fmt;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  }

  // ---- filters ------------------------------------------------------

  // A row passes when, for every filtered dimension it carries, one of its
  // values is selected.
  function passes(f) {
    if (!f) return true;
    for (const [dim] of DIMS) {
      const sel = selected[dim];
      if (!sel || f[dim] == null) continue;
      const vals = Array.isArray(f[dim]) ? f[dim] : [f[dim]];
      if (!vals.some((v) => sel.has(v))) return false;
    }
    return true;
  }

  function rowFilter(tr) {
    const f = tr.dataset.f ? JSON.parse(tr.dataset.f) : null;
    return passes(f);
  }

  function allValues() {
    const vals = {};
    for (const [dim] of DIMS) vals[dim] = new Set();
    const add = (f) => {
      if (!f) return;
      for (const [dim] of DIMS)
        if (f[dim] != null) for (const v of [].concat(f[dim])) vals[dim].add(v);
    };
    for (const c of data.charts || [])
      for (const rows of Object.values(c.spec.datasets || {})) rows.forEach((r) => add(r._f));
    document.querySelectorAll("tr[data-f]").forEach((tr) => add(JSON.parse(tr.dataset.f)));
    return vals;
  }

  function buildFilters() {
    const bar = document.getElementById("filters");
    if (!bar) return;
    const vals = allValues();
    let any = false;
    for (const [dim, label] of DIMS) {
      const list = [...vals[dim]].sort();
      if (list.length < 2) continue;
      any = true;
      const fs = el("fieldset", { "data-dim": dim });
      fs.appendChild(el("legend", {}, label));
      for (const v of list) {
        const lab = el("label");
        const box = el("input", { type: "checkbox", value: v });
        box.checked = true;
        box.addEventListener("change", () => {
          const on = [...fs.querySelectorAll("input:checked")].map((b) => b.value);
          if (on.length === list.length) delete selected[dim];
          else selected[dim] = new Set(on);
          applyFilters();
        });
        lab.appendChild(box);
        lab.appendChild(document.createTextNode(" " + v));
        fs.appendChild(lab);
      }
      bar.appendChild(fs);
    }
    if (!any) bar.appendChild(el("p", { class: "note" }, "One target, backend set and build: nothing to filter."));
  }

  function filteredDatasets(chart) {
    const out = {};
    for (const [name, rows] of Object.entries(chart.spec.datasets || {}))
      out[name] = rows.filter((r) => passes(r._f));
    return out;
  }

  function applyFilters() {
    const jobs = [];
    for (const v of views) {
      const sets = filteredDatasets(v.chart);
      let n = 0;
      for (const [name, rows] of Object.entries(sets)) {
        if (v.view) v.view.data(name, v.mapRows ? v.mapRows(rows) : rows);
        if (name === v.chart.main) n = rows.length;
      }
      v.el.closest(".chart").classList.toggle("empty", n === 0);
      if (v.view) jobs.push(v.view.runAsync());
    }
    document.querySelectorAll("table.filterable tbody tr").forEach((tr) => {
      tr.hidden = !rowFilter(tr);
    });
    redraws.forEach((f) => f());
    document.querySelectorAll("section.target").forEach((s) => {
      const t = s.dataset.target;
      s.hidden = !!(selected.target && !selected.target.has(t));
    });
    return Promise.all(jobs).then(() => document.body.setAttribute("data-filtered", String(Date.now())));
  }

  // ---- charts -------------------------------------------------------

  // Set the scale type of every quantitative encoding of the chart's log
  // axis (the C side writes an explicit scale there).
  function setScale(spec, axis, type) {
    const walk = (o) => {
      if (!o || typeof o !== "object") return;
      const e = o.encoding && o.encoding[axis];
      if (e && e.scale) {
        e.scale.type = type;
      }
      for (const k of ["layer", "hconcat", "vconcat"]) if (Array.isArray(o[k])) o[k].forEach(walk);
      if (o.spec) walk(o.spec);
    };
    walk(spec);
  }

  // The width of text as the charts draw it (Vega's default font).
  const ruler = document.createElement("canvas").getContext("2d");
  function textWidth(t, size, bold) {
    ruler.font = `${bold ? "bold " : ""}${size}px sans-serif`;
    return ruler.measureText(t).width;
  }

  // name split into lines no wider than limit pixels: at spaces; a word
  // wider than a line after "-", "/" or "+", and then anywhere; never cut.
  function wrap(name, limit, size, bold) {
    const fits = (t) => textWidth(t.trimEnd(), size, bold) <= limit;
    const words = [];
    for (const w of String(name).split(/(?<= )/)) {
      if (fits(w)) words.push(w);
      else
        for (let part of w.split(/(?<=[-/+])/)) {
          while (!fits(part) && part.length > 1) {
            let k = part.length - 1;
            while (k > 1 && !fits(part.slice(0, k))) k--;
            words.push(part.slice(0, k));
            part = part.slice(k);
          }
          words.push(part);
        }
    }
    const lines = [];
    let line = "";
    for (const w of words) {
      if (line && !fits(line + w)) {
        lines.push(line.trimEnd());
        line = "";
      }
      line += w;
    }
    if (line) lines.push(line.trimEnd());
    return lines;
  }

  // The names of the band axes that would not fit limit pixels wrapped
  // onto lines in the rows (copies) of the spec's datasets, drawn as lines
  // by the axis; the band grows to hold them. The tooltips keep the name.
  function wrapNames(spec, limit) {
    const size = (spec.config && spec.config.axis && spec.config.axis.labelFontSize) || 11;
    let most = 1;
    const fields = new Set();
    const walk = (o) => {
      if (!o || typeof o !== "object") return;
      const y = o.encoding && o.encoding.y;
      if (y && y.type === "nominal" && y.axis && y.field) {
        fields.add(y.field);
        y.axis.labelExpr = "split(datum.value, '\\n')";
      }
      for (const k of ["layer", "hconcat", "vconcat"]) if (Array.isArray(o[k])) o[k].forEach(walk);
      if (o.spec) walk(o.spec);
    };
    walk(spec);
    if (!fields.size) return null;
    // rows as the chart draws them (the filters give rows again: the
    // same mapping, mapRows)
    const mapRows = (rows) =>
      rows.map((r) => {
        const c = Object.assign({}, r);
        for (const f of fields)
          if (typeof c[f] === "string") {
            const lines = wrap(c[f], limit, size);
            most = Math.max(most, lines.length);
            c["whole_name_" + f] = c[f];
            c[f] = lines.join("\n");
          }
        return c;
      });
    for (const [name, rows] of Object.entries(spec.datasets || {})) spec.datasets[name] = mapRows(rows);
    // the tooltips: the whole name on one line
    const tips = (o) => {
      if (!o || typeof o !== "object") return;
      const t = o.encoding && o.encoding.tooltip;
      for (const e of Array.isArray(t) ? t : t ? [t] : []) if (fields.has(e.field)) e.field = "whole_name_" + e.field;
      for (const k of ["layer", "hconcat", "vconcat"]) if (Array.isArray(o[k])) o[k].forEach(tips);
      if (o.spec) tips(o.spec);
    };
    tips(spec);
    // a band of one line is 20 px: more lines need more
    const grow = (o) => {
      if (!o || typeof o !== "object") return;
      if (o.height && typeof o.height.step === "number" && most > 1 && !(o.encoding && o.encoding.yOffset))
        o.height.step = Math.max(o.height.step, most * (size + 2) + 6);
      for (const k of ["layer", "hconcat", "vconcat"]) if (Array.isArray(o[k])) o[k].forEach(grow);
      if (o.spec) grow(o.spec);
    };
    grow(spec);
    return mapRows;
  }

  // A title wider than limit pixels as lines (Vega-Lite draws an array
  // of strings as lines).
  function wrapTitle(t, limit, size) {
    if (typeof t !== "string" || textWidth(t, size, true) <= limit) return t;
    return wrap(t, limit, size, true);
  }

  // The facet headers wider than limit pixels wrapped: a label expression
  // that gives each header's lines.
  function wrapHeaders(spec, limit) {
    for (const h of Object.values(spec.facet || {})) {
      if (!h || !h.header || !h.field) continue;
      const size = h.header.labelFontSize || 12;
      const values = new Set();
      for (const rows of Object.values(spec.datasets || {})) for (const r of rows) if (typeof r[h.field] === "string") values.add(r[h.field]);
      let expr = "";
      const bold = h.header.labelFontWeight === "bold";
      for (const v of values) if (textWidth(v, size, bold) > limit) expr += `datum.value === ${JSON.stringify(v)} ? ${JSON.stringify(wrap(v, limit, size, bold))} : `;
      if (expr) h.header.labelExpr = expr + "datum.value";
      h.header.labelLimit = limit;
    }
  }

  // Fit a specification to the width its box has (w pixels): the view
  // takes the width (a faceted one: its inner view, beside the names),
  // the names of a band axis are cut to what is left, and legends take as
  // many columns as fit. The C side gives the design; this gives the size.
  function fit(spec, w) {
    const names = Math.max(90, Math.min(380, Math.round(w * 0.34)));
    const mapRows = wrapNames(spec, names - 8);
    // a faceted view's plot: beside the names, its right padding
    const plot = spec.facet ? Math.max(80, w - names - 50) : w;
    const cols = Math.max(1, Math.floor(w / 250));
    const walk = (o) => {
      if (!o || typeof o !== "object") return;
      const enc = o.encoding || {};
      if (enc.y && enc.y.type === "nominal" && enc.y.axis) enc.y.axis.labelLimit = names;
      for (const a of ["x", "y"])
        if (enc[a] && enc[a].title) {
          // an x title is centred on the plot, beside a band axis's names
          const limit = spec.facet ? plot : a === "x" && mapRows ? w - names - 30 : w - 20;
          enc[a].title = wrapTitle(enc[a].title, limit, 12);
          enc[a].axis = Object.assign(enc[a].axis || {}, { titleLimit: limit });
          // beside a band axis's names: the title ends where the plot ends
          if (a === "x" && mapRows && !spec.facet) Object.assign(enc.x.axis, { titleAnchor: "end", titleAlign: "right" });
        }
      // the last tick's label within the plot, not past the card's edge
      if (enc.x && enc.x.type === "quantitative") enc.x.axis = Object.assign(enc.x.axis || {}, { labelFlush: true });
      if (enc.color && enc.color.legend) {
        // a legend beside the chart leaves a phone no room for it: below
        if (enc.color.legend.orient === "right" && w < 700) enc.color.legend.orient = "bottom";
        const orient = enc.color.legend.orient;
        if (orient === "top" || orient === "bottom") enc.color.legend.columns = cols;
        enc.color.legend.labelLimit = Math.min(230, w - 40);
        enc.color.legend.titleLimit = w - 20;
      }
      for (const k of ["layer", "hconcat", "vconcat"]) if (Array.isArray(o[k])) o[k].forEach(walk);
      if (o.spec) walk(o.spec);
    };
    walk(spec);
    if (spec.facet) {
      wrapHeaders(spec, plot + 40);
      spec.spec.width = plot;
    } else {
      spec.width = Math.max(120, w);
      spec.autosize = { type: "fit-x", contains: "padding" };
      // room on the right for the last tick's label
      spec.padding = { left: 5, top: 5, bottom: 5, right: 16 };
    }
    return mapRows;
  }

  function embed(v) {
    const spec = structuredClone(v.chart.spec);
    if (v.chart.log) setScale(spec, v.chart.log.axis, v.log ? "log" : "linear");
    spec.datasets = filteredDatasets(v.chart);
    v.width = v.el.clientWidth;
    v.mapRows = fit(spec, v.width);
    if (v.view) v.view.finalize();
    return vegaEmbed(v.el, spec, { actions: false, renderer: "svg", tooltip: { theme: "light" }, ast: true }).then((r) => {
      v.view = r.view;
      v.el.dataset.rendered = "1";
    });
  }

  function buildCharts() {
    const jobs = [];
    for (const chart of data.charts || []) {
      const box = document.querySelector(`.chart[data-chart="${chart.id}"]`);
      if (!box) continue;
      const target = box.querySelector(".vis");
      const v = { chart, el: target, view: null, log: chart.log ? !!chart.log.on : false };
      let scaleLabel = null;
      if (chart.log) {
        const b = el("button", { type: "button", class: "scale" });
        scaleLabel = () => (b.textContent = v.log ? "log scale: switch to linear" : "linear scale: switch to log");
        scaleLabel();
        b.addEventListener("click", () => {
          v.log = !v.log;
          scaleLabel();
          embed(v);
        });
        box.querySelector(".tools").appendChild(b);
      }
      // A device's chart in estimated cycles, and the same in QEMU's
      // instructions a click away (the C side gives both).
      if (chart.alt) {
        const b = el("button", { type: "button", class: "measure" });
        const label = () => (b.textContent = `${chart.label}: switch to ${chart.alt.label}`);
        label();
        b.addEventListener("click", () => {
          for (const k of ["spec", "log", "label"]) [chart[k], chart.alt[k]] = [chart.alt[k], chart[k]];
          v.log = chart.log ? !!chart.log.on : false;
          label();
          if (scaleLabel) scaleLabel();
          box.dataset.measure = chart.label;
          embed(v).then(applyFilters);
        });
        box.dataset.measure = chart.label;
        box.querySelector(".tools").appendChild(b);
      }
      views.push(v);
      jobs.push(embed(v));
    }
    return Promise.all(jobs);
  }

  // A window of another width: every chart whose box changed width is
  // drawn again to fit it; body[data-width] says when that is done.
  let resizing = null;
  function refit() {
    const jobs = views.filter((v) => v.el.clientWidth !== v.width).map((v) => embed(v));
    return Promise.all(jobs).then(() => document.body.setAttribute("data-width", String(window.innerWidth)));
  }
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(refit, 100);
  });

  // ---- tables -------------------------------------------------------

  function cell(tr, v, key) {
    const td = el("td", key ? { "data-k": key } : {});
    if (typeof v === "number") {
      td.dataset.v = String(v);
      td.className = "num";
      td.textContent = fmt(v);
    } else {
      td.textContent = v == null ? "" : String(v);
    }
    tr.appendChild(td);
    return td;
  }

  // The columns of the operations table: the known ones first, then every
  // other scalar field an operation carries (a field added to results.json
  // shows up here without a change to this script), then the median or
  // status of object fields (est_cycles, ct, ...).
  const KNOWN = ["alg", "op", "bytes", "backend", "variant", "n", "batch", "unit", "median", "p99", "iqr", "min", "max", "mean", "cv", "stack_bytes", "heap_bytes", "heap_allocs"];
  const SKIP = new Set(["kat", "warmup", "stddev", "samples"]);
  function opColumns(runs) {
    const cols = [];
    const seen = new Set();
    const add = (c) => {
      if (!seen.has(c)) {
        seen.add(c);
        cols.push(c);
      }
    };
    const present = new Set();
    for (const r of runs)
      for (const o of r.ops || [])
        for (const [k, v] of Object.entries(o)) {
          if (SKIP.has(k) || v === null) continue;
          if (typeof v !== "object") present.add(k);
          else if (!Array.isArray(v)) for (const s of ["median", "status", "value"]) if (s in v && typeof v[s] !== "object") present.add(k + "." + s);
        }
    KNOWN.forEach((c) => present.has(c) && add(c));
    [...present].sort().forEach(add);
    return cols;
  }
  function get(o, path) {
    return path.split(".").reduce((x, k) => (x == null ? undefined : x[k]), o);
  }

  function buildOps(results) {
    const host = document.getElementById("ops-table");
    if (!host || !results) return;
    const runs = results.runs || [];
    const cols = opColumns(runs);
    const t = el("table", { class: "sortable filterable", "data-table": "ops" });
    const head = el("tr");
    ["target", "profile", "build", ...cols].forEach((c) => head.appendChild(el("th", { "data-k": c }, c)));
    t.appendChild(el("thead")).appendChild(head);
    const body = t.appendChild(el("tbody"));
    runs.forEach((r, ri) => {
      const build = (data.builds || [])[ri] || {};
      (r.ops || []).forEach((o, oi) => {
        const tr = el("tr", { "data-run": String(ri), "data-op": String(oi) });
        tr.dataset.f = JSON.stringify({ target: r.target, profile: r.profile, cc: build.cc, opt: build.opt, backend: o.backend, alg: o.alg });
        cell(tr, r.target);
        cell(tr, r.profile);
        cell(tr, build.label || "");
        for (const c of cols) {
          const td = cell(tr, get(o, c), c);
          if (c === "ct.status" && o.ct && o.ct.detail) td.title = o.ct.detail;
        }
        body.appendChild(tr);
      });
    });
    host.appendChild(t);
  }

  // Devices down, functions across (the seed's layout): one row per run,
  // one column per (algorithm, operation, payload, backend), the metric
  // chosen above it.
  function buildMatrix(results) {
    const host = document.getElementById("matrix");
    if (!host || !results) return;
    const runs = results.runs || [];
    const metrics = [["median", "median time"], ["p99", "p99 time"], ["stack_bytes", "peak stack (bytes)"], ["heap_bytes", "peak heap (bytes)"]];
    for (const r of runs)
      for (const o of r.ops || [])
        for (const [k, v] of Object.entries(o))
          if (!metrics.some((m) => m[0] === k) && typeof v === "number" && /^est_/.test(k)) metrics.push([k, k]);
          else if (v && typeof v === "object" && !Array.isArray(v) && typeof v.median === "number" && !metrics.some((m) => m[0] === k + ".median")) metrics.push([k + ".median", k + " (median)"]);
    metrics.push(["code", "code: flash bytes of the whole algorithm"]);
    const sel = el("select", { "data-role": "metric" });
    metrics.forEach(([k, l]) => sel.appendChild(el("option", { value: k }, l)));
    const keyOf = (o) => [o.alg, o.op, o.bytes == null ? "" : o.bytes + " B", o.backend].join("|");
    const cols = [];
    const colSet = new Map();
    for (const r of runs)
      for (const o of r.ops || []) {
        const k = keyOf(o);
        if (!colSet.has(k)) {
          colSet.set(k, o);
          cols.push(k);
        }
      }
    const wrap = el("div", { class: "scroll" });
    function draw() {
      const m = sel.value;
      const t = el("table", { class: "sortable filterable", "data-table": "matrix" });
      const head = el("tr");
      head.appendChild(el("th", {}, "device (target, profile, build)"));
      // the filters' backends and algorithms select columns here
      const shown = cols.filter((k) => passes({ backend: colSet.get(k).backend, alg: colSet.get(k).alg }));
      for (const k of shown) {
        const o = colSet.get(k);
        const th = el("th", {}, `${o.alg} ${o.op}${o.bytes == null ? "" : " " + o.bytes + " B"} (${o.backend})`);
        head.appendChild(th);
      }
      t.appendChild(el("thead")).appendChild(head);
      const body = t.appendChild(el("tbody"));
      runs.forEach((r, ri) => {
        const build = (data.builds || [])[ri] || {};
        const tr = el("tr");
        tr.dataset.f = JSON.stringify({ target: r.target, profile: r.profile, cc: build.cc, opt: build.opt });
        cell(tr, `${r.target} · ${r.profile}${build.label ? " · " + build.label : ""} (${(r.provenance || {}).unit || "?"})`);
        for (const k of shown) {
          const o = (r.ops || []).find((x) => keyOf(x) === k);
          let v;
          if (o && m === "code") {
            const a = (r.algorithms || []).find((x) => x.alg === o.alg && x.backend === o.backend);
            v = a ? a.flash_bytes : undefined;
          } else if (o) v = get(o, m);
          cell(tr, v);
        }
        body.appendChild(tr);
      });
      wrap.replaceChildren(t);
      sortable(t);
      t.querySelectorAll("tbody tr").forEach((tr) => (tr.hidden = !rowFilter(tr)));
    }
    sel.addEventListener("change", draw);
    redraws.push(draw);
    const p = el("p");
    p.appendChild(document.createTextNode("Metric: "));
    p.appendChild(sel);
    host.appendChild(p);
    host.appendChild(wrap);
    draw();
  }

  function sortable(t) {
    const head = t.tHead ? t.tHead.rows[0] : t.rows[0];
    if (!head || head.dataset.sortable) return;
    head.dataset.sortable = "1";
    [...head.cells].forEach((th, i) => {
      th.classList.add("sort");
      th.title = "sort";
      th.addEventListener("click", () => {
        const dir = th.dataset.dir === "asc" ? "desc" : "asc";
        [...head.cells].forEach((c) => delete c.dataset.dir);
        th.dataset.dir = dir;
        const body = t.tBodies[0];
        const rows = [...body.rows];
        const key = (tr) => {
          const c = tr.cells[i];
          if (!c) return "";
          return c.dataset.v != null ? Number(c.dataset.v) : c.textContent;
        };
        rows.sort((a, b) => {
          const x = key(a);
          const y = key(b);
          const r = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
          return dir === "asc" ? r : -r;
        });
        rows.forEach((r) => body.appendChild(r));
      });
    });
  }

  buildOps(data.results);
  buildMatrix(data.results);
  document.querySelectorAll("table.sortable").forEach(sortable);
  buildFilters();
  buildCharts()
    .then(applyFilters)
    .then(() => {
      document.body.setAttribute("data-width", String(window.innerWidth));
      document.body.setAttribute("data-ready", "1");
    })
    .catch((e) => {
      document.body.setAttribute("data-ready", "error");
      console.error("merlin: a chart failed to render: " + (e && e.message ? e.message : e));
    });
})();
