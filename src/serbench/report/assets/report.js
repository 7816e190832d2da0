// serbench's HTML report: draws the report model embedded by serbench/report/html.py.
// Every string from the run reaches the page as text (textContent, or escaped for plotly's
// labels), never as markup.
"use strict";

const DATA = JSON.parse(document.getElementById("serbench-data").textContent);
const CHART_OPS = ["encode", "decode"].filter((op) => DATA.operations.includes(op));
// decoding operations: an access row's (lazy-access, zero-copy-decode) is ranked apart
const ACCESS_OPS = new Set(DATA.access_ops);
const COUNTS = DATA.measure === "instructions"; // counts per operation, not times
// labels that change what a row's numbers mean: shown beside its flags (all are in a tooltip)
const NOTABLE = new Set([
  "baseline",
  "zero-copy-decode",
  "lazy-access",
  "borrowed-strings",
  "unvalidated",
  "unsafe-untrusted-input",
  "needs-jit",
]);
const FACETS = [
  ["runner", "language"],
  ["format", "format"],
  ["status", "check"],
];

const state = {
  dataset: 0,
  hidden: Object.fromEntries(FACETS.map(([key]) => [key, new Set()])),
  labels: new Map(), // label -> "require" | "exclude"
  sort: { key: null, dir: 1 }, // null: the model's order
};

// --- small helpers -------------------------------------------------------------------

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined)); // strings: text nodes
  return node;
}

// plotly reads a few tags and entities in its labels: escape them so names stay text
function plotlyText(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// a module path as text nodes with a line-break opportunity after every "/"
function breakable(text) {
  return text.split(/(?<=\/)/).flatMap((part) => [part, el("wbr")]);
}

function unique(values) {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}

// a time (ns) or an instruction count as the Python side's fmt_ns writes it: 3 digits, a unit
const UNITS = COUNTS
  ? [
      ["G instr", 1e9],
      ["M instr", 1e6],
      ["k instr", 1e3],
      ["instr", 1],
    ]
  : [
      ["s", 1e9],
      ["ms", 1e6],
      ["µs", 1e3],
      ["ns", 1],
    ];
function fmtAmount(v) {
  const [unit, scale] = UNITS.find(([, s]) => v >= s) ?? UNITS[UNITS.length - 1];
  return `${Number((v / scale).toPrecision(3))} ${unit}`;
}

// ticks of a log axis from lo to hi: 1-2-5 per decade over a few decades, else 1 per decade
function logTicks(lo, hi) {
  const from = Math.floor(Math.log10(lo));
  const to = Math.ceil(Math.log10(hi));
  const steps = to - from <= 3 ? [1, 2, 5] : [1];
  const ticks = [];
  for (let k = from; k <= to; k++)
    for (const m of steps) {
      const v = Number((m * 10 ** k).toPrecision(3));
      if (v >= lo && v <= hi) ticks.push(v);
    }
  if (ticks.length < 2) return [lo, Math.sqrt(lo * hi), hi].map((v) => Number(v.toPrecision(2)));
  return ticks;
}

// --- columns -------------------------------------------------------------------------

// kind: "text" sorts alphabetically, "num" ascending, "pct" shows the value as % of the
// best ranked row in view (ranked: OK and not a baseline). access: a decoding operation,
// where an access row is compared with access rows only.
function columns() {
  const cols = [
    { key: "name", label: "serializer", kind: "text", value: (r) => r.name },
    { key: "library", label: "library", kind: "text", value: (r) => r.library },
    { key: "format", label: "format", kind: "text", value: (r) => r.format },
  ];
  for (const op of DATA.operations) {
    const value = (r) => r.ops[op]?.ns ?? null;
    const access = ACCESS_OPS.has(op);
    cols.push({
      key: op,
      label: op,
      kind: "num",
      value,
      access,
      text: (r) => r.ops[op]?.text ?? "-",
      tip: (r) => r.ops[op]?.tip,
    });
    cols.push({ key: `${op}%`, label: "% best", kind: "pct", of: op, value, access });
  }
  const size = (k) => (r) => r.sizes[k] ?? null;
  cols.push({
    key: "bytes",
    label: "bytes",
    kind: "num",
    value: size("encoded"),
    text: (r) => r.sizes_text.encoded ?? "-",
  });
  cols.push({ key: "bytes%", label: "% best", kind: "pct", of: "bytes", value: size("encoded") });
  for (const c of DATA.codecs) {
    cols.push({
      key: c,
      label: c,
      kind: "num",
      value: size(c),
      text: (r) => r.sizes_text[c] ?? "-",
    });
  }
  cols.push(
    {
      key: "alloc",
      label: "alloc/op",
      kind: "num",
      value: (r) => r.alloc,
      text: (r) => r.alloc_text,
    },
    {
      key: "footprint",
      label: "footprint",
      kind: "num",
      value: (r) => r.footprint,
      text: (r) => r.footprint_text,
    },
    {
      key: "stability",
      label: "stability",
      kind: "num",
      value: (r) => r.stability,
      text: (r) => r.stability_text,
    },
    { key: "check", label: "check", kind: "text", value: (r) => r.status },
    { key: "notes", label: "notes", kind: "notes", value: (r) => r.detail || r.flags.join(" ") },
  );
  return cols;
}
const COLUMNS = columns();

const ranked = (r) => r.status === "OK" && !r.baseline;
// the best-value key a row's pct cell is compared with: an access row's own group
const group = (col, row) => (col.access && row.access ? `${col.key}@access` : col.key);

// best (smallest) value of every pct column among the rows in view; for a decoding
// operation, one among the full decodes and one among the access rows
function bests(rows) {
  const out = {};
  for (const col of COLUMNS.filter((c) => c.kind === "pct")) {
    for (const access of col.access ? [false, true] : [false]) {
      const values = rows
        .filter((r) => ranked(r) && (!col.access || r.access === access))
        .map(col.value)
        .filter((v) => v !== null && v > 0);
      out[col.key + (access ? "@access" : "")] = values.length ? Math.min(...values) : null;
    }
  }
  return out;
}

// --- filtering and sorting -----------------------------------------------------------

function visible(row) {
  if (FACETS.some(([key]) => state.hidden[key].has(row[key]))) return false;
  for (const [label, rule] of state.labels) {
    if ((rule === "require") !== row.labels.includes(label)) return false;
  }
  return true;
}

function ordered(rows) {
  const col = COLUMNS.find((c) => c.key === state.sort.key);
  if (!col) return rows;
  const keyed = rows.map((row, i) => [col.value(row), i, row]);
  keyed.sort(([a, i, x], [b, j, y]) => {
    // a decoding column ranks the access rows apart, after the full decodes
    const apart = col.access ? x.access - y.access : 0;
    if (apart) return apart;
    if (a === null || a === "" || b === null || b === "") {
      const missing = (a === null || a === "") - (b === null || b === "");
      return missing || i - j; // rows without a value stay last, in the model's order
    }
    const cmp = typeof a === "string" ? a.localeCompare(b) : a - b;
    return state.sort.dir * cmp || i - j;
  });
  return keyed.map(([, , row]) => row);
}

// --- drawing -------------------------------------------------------------------------

function drawHeader() {
  document.getElementById("title").textContent = `serbench run ${DATA.run.id}`;
  const facts = document.getElementById("facts");
  for (const [k, v] of DATA.run.facts)
    facts.append(el("div", {}, el("dt", {}, k), el("dd", {}, v)));
  for (const [id, words] of [
    ["flag-legend", DATA.flags],
    ["label-legend", DATA.labels],
  ]) {
    const dl = document.getElementById(id);
    for (const [word, meaning] of Object.entries(words))
      dl.append(el("dt", {}, word), el("dd", {}, meaning));
  }
}

// the untrusted-input tab's index in state.dataset (after every dataset's)
const UNTRUSTED_TAB = -1;
const UNTRUSTED_HASH = "untrusted";

function tab(i, name, title) {
  return el(
    "button",
    {
      type: "button",
      class: "tab",
      "aria-pressed": String(i === state.dataset),
      title,
      onclick: () => {
        state.dataset = i;
        history.replaceState(null, "", `#${encodeURIComponent(name)}`);
        drawTabs();
        draw();
      },
    },
    name,
  );
}

function drawTabs() {
  const nav = document.getElementById("datasets");
  const tabs = DATA.datasets.map((ds, i) => tab(i, ds.name, ds.title));
  if (DATA.untrusted.sections.length)
    tabs.push(tab(UNTRUSTED_TAB, UNTRUSTED_HASH, DATA.untrusted.title));
  nav.replaceChildren(...tabs);
}

function drawFilters() {
  const all = DATA.datasets.flatMap((ds) => ds.rows);
  const box = document.getElementById("filters");
  const groups = FACETS.map(([key, title]) =>
    el(
      "fieldset",
      { "data-facet": key },
      el("legend", {}, title),
      ...unique(all.map((r) => r[key])).map((value) =>
        el(
          "label",
          {},
          el("input", {
            type: "checkbox",
            checked: !state.hidden[key].has(value),
            value,
            onchange: (e) => {
              state.hidden[key][e.target.checked ? "delete" : "add"](value);
              draw();
            },
          }),
          value || "(none)",
        ),
      ),
    ),
  );
  const labels = el(
    "fieldset",
    { "data-facet": "label", class: "labels" },
    el(
      "legend",
      { title: "click a label: only rows with it, then rows without it, then either" },
      "label",
    ),
    ...unique(all.flatMap((r) => r.labels)).map((label) =>
      el(
        "button",
        {
          type: "button",
          class: "chip",
          "data-label": label,
          "data-rule": state.labels.get(label) ?? "",
          title: DATA.labels[label] ?? "",
          onclick: () => {
            const next = { "": "require", require: "exclude", exclude: "" }[
              state.labels.get(label) ?? ""
            ];
            if (next) state.labels.set(label, next);
            else state.labels.delete(label);
            drawFilters();
            draw();
          },
        },
        label,
      ),
    ),
  );
  const reset = el(
    "button",
    {
      type: "button",
      class: "reset",
      onclick: () => {
        for (const set of Object.values(state.hidden)) set.clear();
        state.labels.clear();
        drawFilters();
        draw();
      },
    },
    "show all",
  );
  box.replaceChildren(...groups, labels, reset);
}

function cell(col, row, best) {
  if (col.kind === "pct") {
    const v = col.value(row);
    const b = best[group(col, row)];
    if (!ranked(row) || v === null || b === null || v <= 0)
      return el("td", { class: "pct", "data-col": col.key });
    const pct = (100 * b) / v;
    const bar = el("span", { class: "bar" });
    bar.style.width = `${Math.min(pct, 100).toFixed(1)}%`;
    const apart = col.access && row.access;
    return el(
      "td",
      {
        class: apart ? "pct access" : "pct",
        "data-col": col.key,
        title: apart ? "of the best access row in view (ranked apart from full decodes)" : null,
      },
      bar,
      el("span", { class: "v" }, `${pct.toFixed(pct < 10 ? 1 : 0)}%`),
    );
  }
  if (col.kind === "notes") {
    const flags = row.flag_words.map((w, i) =>
      el("span", { class: "flag", title: DATA.flags[w] ?? "" }, row.flags[i]),
    );
    const chips = row.labels
      .filter((l) => NOTABLE.has(l))
      .map((l) => el("span", { class: `label label-${l}`, title: DATA.labels[l] ?? "" }, l));
    return el("td", { class: "notes", "data-col": col.key }, ...flags, ...chips);
  }
  const text = col.text ? col.text(row) : col.value(row);
  const tip = col.key === "name" ? `labels: ${row.labels.join(", ") || "none"}` : col.tip?.(row);
  const td = el("td", { class: col.kind, "data-col": col.key, title: tip });
  if (col.key === "library") td.append(...breakable(text));
  else td.append(text ?? "-");
  if (col.access && row.access && row.ops[col.key])
    td.append(
      el(
        "span",
        { class: "access-tag", title: "an access, not a full decode: ranked apart" },
        "access",
      ),
    );
  return td;
}

// A row without measurements (NG, n/a, ERR) shows its reason across the measurement columns.
const REASON_SPAN = [COLUMNS.findIndex((c) => c.key === DATA.operations[0]), COLUMNS.length - 2];

function cells(row, best) {
  const all = COLUMNS.map((col) => cell(col, row, best));
  if (row.status === "OK") return all;
  const [from, to] = REASON_SPAN;
  const reason = el(
    "td",
    { class: "reason", "data-col": "reason", colspan: String(to - from) },
    row.detail || "-",
  );
  return [...all.slice(0, from), reason, ...all.slice(to)];
}

function drawTable(rows) {
  const best = bests(rows);
  const head = el(
    "tr",
    {},
    ...COLUMNS.map((col) => {
      const sorted = state.sort.key === col.key;
      const ofWhat = col.kind === "pct" ? `${col.of}: the best in view ÷ this row` : null;
      // a pct column sorts by its value: the smallest value is the highest percentage
      const up = (col.kind === "pct" ? -state.sort.dir : state.sort.dir) > 0;
      return el(
        "th",
        {
          class: col.kind,
          "data-col": col.key,
          "aria-sort": sorted ? (up ? "ascending" : "descending") : "none",
          title: ofWhat,
        },
        el(
          "button",
          {
            type: "button",
            onclick: () => {
              state.sort = sorted
                ? { key: col.key, dir: -state.sort.dir }
                : { key: col.key, dir: 1 };
              draw();
            },
          },
          col.label,
        ),
      );
    }),
  );
  const body = rows.map((row) =>
    el(
      "tr",
      {
        class: `status-${row.status.replace("/", "")}${row.baseline ? " baseline" : ""}`,
        "data-name": row.name,
      },
      ...cells(row, best),
    ),
  );
  document
    .getElementById("results")
    .replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
}

// The time axis is logarithmic: a dataset's rows span 1,000x and more, and on a linear axis
// the fastest ones, the rows people look for, get no visible bar. Sizes stay linear from zero
// (proportions read directly) unless they too span over SIZE_LOG_SPAN.
const SIZE_LOG_SPAN = 100;
const COLOURS = { encode: "#4477aa", decode: "#ee6677", access: "#aa3377" };

function drawChart(rows) {
  const div = document.getElementById("chart-time");
  const shown = rows.filter((r) => ranked(r) && Object.keys(r.ops).length);
  div.hidden = shown.length === 0;
  if (!shown.length) {
    Plotly.purge(div);
    return;
  }
  const names = shown.map((r) => {
    const unsettled = CHART_OPS.some((op) => r.ops[op] && r.ops[op].ns === null);
    return plotlyText(r.name + (unsettled ? " (no single figure)" : ""));
  });
  // full decodes and accesses are separate series; the access series starts hidden (a click
  // on its legend entry shows it), so the decode bars compare full decodes only
  const series = CHART_OPS.map((op) => ({
    op,
    name: op,
    pick: (r) => !(ACCESS_OPS.has(op) && r.access),
    visible: true,
  }));
  if (CHART_OPS.includes("decode") && shown.some((r) => r.access && r.ops.decode))
    series.push({ op: "decode", name: "access", pick: (r) => r.access, visible: "legendonly" });
  const traces = [];
  for (const s of series) {
    const est = shown.map((r) => (s.pick(r) ? (r.ops[s.op] ?? null) : null));
    const x = est.map((e) => e?.ns ?? null);
    traces.push({
      type: "bar",
      orientation: "h",
      name: s.name,
      legendgroup: s.name,
      offsetgroup: s.name,
      visible: s.visible,
      y: names,
      x,
      marker: { color: COLOURS[s.name] },
      error_x: {
        type: "data",
        symmetric: false,
        array: est.map((e, i) => (x[i] === null ? null : e.hi - x[i])),
        arrayminus: est.map((e, i) => (x[i] === null ? null : x[i] - e.lo)),
        thickness: 1.2,
        width: 3,
        color: "#222",
      },
      hovertext: est.map((e) =>
        plotlyText(e ? (e.ns === null ? `${e.text}: no single number` : e.tip) : "not measured"),
      ),
      hoverinfo: "text+name",
    });
    // a cell without a single figure: no bar from zero, but a hatched bar over its range (in
    // the operation's own slot, so the row still shows where it may stand)
    const ranges = est.map((e) => e?.range ?? null);
    if (ranges.some((v) => v !== null))
      traces.push({
        type: "bar",
        orientation: "h",
        name: `${s.name}, range`,
        legendgroup: s.name,
        offsetgroup: s.name,
        showlegend: false,
        visible: s.visible,
        y: names,
        base: ranges.map((v) => (v ? v[0] : null)),
        x: ranges.map((v) => (v ? v[1] - v[0] : null)),
        marker: {
          color: "rgba(255,255,255,0)",
          line: { color: COLOURS[s.name], width: 1 },
          pattern: { shape: "/", fgcolor: COLOURS[s.name], size: 5, solidity: 0.4 },
        },
        hovertext: est.map((e) => plotlyText(e?.range ? `${e.text} (${e.why})` : "")),
        hoverinfo: "text+name",
      });
  }
  // the axis spans every interval and range of the rows shown, hidden series included
  const ends = shown
    .flatMap((r) => CHART_OPS.map((op) => r.ops[op]))
    .filter((e) => e)
    .flatMap((e) => (e.range ? e.range : e.ns === null ? [] : [e.lo, e.hi]))
    .filter((v) => v > 0);
  const lo = ends.length ? Math.min(...ends) : 1;
  const hi = ends.length ? Math.max(...ends) : 10;
  const ticks = logTicks(lo, hi);
  const sized = shown.map((r) => r.sizes.encoded).filter((v) => v > 0);
  const sizeLog = sized.length > 0 && Math.max(...sized) / Math.min(...sized) > SIZE_LOG_SPAN;
  const sizes = ["encoded", ...DATA.codecs].map((k, i) => ({
    type: "bar",
    orientation: "h",
    name: k === "encoded" ? "bytes" : `bytes, ${k}`,
    y: names,
    x: shown.map((r) => r.sizes[k] ?? null),
    xaxis: "x2",
    marker: { color: ["#777777", "#66ccee", "#228833", "#ccbb44"][i] },
    visible: k === "encoded" || k === "zstd" ? true : "legendonly",
    hoverinfo: "x+name",
  }));
  const layout = {
    barmode: "group",
    height: 120 + 26 * shown.length,
    margin: { t: 10, r: 20, b: 50, l: 10 },
    font: { size: 11 },
    legend: { orientation: "h", x: 0, y: 1, yanchor: "bottom" },
    yaxis: { automargin: true, autorange: "reversed", type: "category" },
    xaxis: {
      domain: [0, 0.62],
      type: "log",
      range: [Math.log10(lo / 1.5), Math.log10(hi * 1.5)],
      tickvals: ticks,
      ticktext: ticks.map(fmtAmount),
      title: {
        text: `${COUNTS ? "instructions" : "time"} per operation, log scale: fast-edge median, 95% interval; hatched: the range of a cell with no single figure`,
      },
    },
    xaxis2: {
      domain: [0.68, 1],
      anchor: "y",
      type: sizeLog ? "log" : "linear",
      rangemode: "tozero",
      title: { text: sizeLog ? "bytes, log scale" : "bytes" },
    },
  };
  Plotly.react(div, [...traces, ...sizes], layout, {
    displaylogo: false,
    responsive: true,
    modeBarButtonsToRemove: ["select2d", "lasso2d"],
  });
}

function draw() {
  const untrusted = state.dataset === UNTRUSTED_TAB;
  document.getElementById("untrusted").hidden = !untrusted;
  document.querySelector("main").hidden = untrusted;
  document.getElementById("filters").hidden = untrusted;
  if (untrusted) {
    drawUntrusted(DATA.untrusted);
    return;
  }
  const ds = DATA.datasets[state.dataset];
  document.getElementById("dataset-title").textContent = ds.title;
  const rows = ordered(ds.rows.filter(visible));
  const hidden = ds.rows.length - rows.length;
  document.getElementById("shown").textContent =
    `${rows.length} of ${ds.rows.length} rows shown` +
    (hidden ? ` (${hidden} hidden by the filters)` : "");
  drawTable(rows);
  drawChart(rows);
}

function start() {
  drawHeader();
  const wanted = decodeURIComponent(location.hash.slice(1));
  state.dataset = Math.max(
    0,
    DATA.datasets.findIndex((ds) => ds.name === wanted),
  );
  if (wanted === UNTRUSTED_HASH && DATA.untrusted.sections.length) state.dataset = UNTRUSTED_TAB;
  drawTabs();
  drawFilters();
  if (DATA.datasets.length || state.dataset === UNTRUSTED_TAB) draw();
  else document.getElementById("dataset-title").textContent = "this run has no results";
}

start();
