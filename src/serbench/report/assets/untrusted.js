// The tab of outcomes on bytes a library did not write (conformance, robustness,
// cross-language read-back): tables and lines prepared by serbench/report/untrusted_tab.py,
// drawn as text. Uses el() from report.js, which runs after this file is loaded.
"use strict";

const NUMBER = /^[\d,.%/-]+$/; // counts, rates, "3/5": right-aligned

function untrustedTable(t) {
  const head = el("tr", {}, ...t.columns.map((c) => el("th", { scope: "col" }, c)));
  const body = t.rows.map((row) =>
    el("tr", {}, ...row.map((v) => el("td", { class: NUMBER.test(v) ? "num" : null }, v))),
  );
  return el(
    "div",
    { class: "table-wrap" },
    el(
      "table",
      {},
      t.title ? el("caption", {}, t.title) : null,
      el("thead", {}, head),
      el("tbody", {}, ...body),
    ),
  );
}

function untrustedLine(line) {
  const cls = line.flag ? "flag-line" : line.dim ? "dim-line" : null;
  return el("p", { class: cls }, line.text);
}

function drawUntrusted(tab) {
  const box = document.getElementById("untrusted");
  box.replaceChildren(
    el("h2", {}, tab.title),
    ...tab.sections.map((s) =>
      el(
        "section",
        {},
        el("h3", {}, s.title),
        s.source ? el("p", { class: "dim-line" }, `from ${s.source}`) : null,
        ...s.tables.map(untrustedTable),
        ...s.lines.map(untrustedLine),
        s.failures?.length
          ? el(
              "details",
              {},
              el("summary", {}, "failures, each with the command that replays it"),
              ...s.failures.map(untrustedLine),
            )
          : null,
      ),
    ),
  );
}
