"""A self-contained HTML report: the Markdown tables plus a chart per dataset (inline SVG)."""

from __future__ import annotations

import html
import io

import matplotlib

matplotlib.use("Agg")  # no display: render to SVG in memory
import matplotlib.pyplot as plt  # noqa: E402

from serbench import report  # noqa: E402
from serbench.report.text import _cells, _columns, _title  # noqa: E402

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; margin-bottom: 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }
td:first-child, td:nth-child(2), th { text-align: left; }
tr.NG td, tr.error td { background: #fde2e2; }
tr.na td { color: #999; }
.chart svg { max-width: 100%; height: auto; }
"""


def _chart(dataset: str, rows: list[report.Row]) -> str:
    """Encode and decode times (log scale, 95% CI whiskers) and bytes, best first."""
    ok = [r for r in rows if r.status == "ok" and "baseline" not in r.labels and r.ops]
    if not ok:
        return ""
    names = [r.name for r in ok]
    fig, (ax_t, ax_b) = plt.subplots(
        1, 2, figsize=(12, 0.32 * len(ok) + 1.5), sharey=True, gridspec_kw={"width_ratios": [2, 1]}
    )
    y = range(len(ok))
    for offset, op, colour in ((-0.2, "encode", "#4477aa"), (0.2, "decode", "#ee6677")):
        heads, lows, highs, ys = [], [], [], []
        for i, r in enumerate(ok):
            e = r.ops.get(op)
            if e is None:
                continue
            ys.append(i + offset)
            heads.append(e.headline_ns)
            lows.append(e.headline_ns - e.ci_low_ns)
            highs.append(e.ci_high_ns - e.headline_ns)
        ax_t.barh(
            ys,
            heads,
            height=0.4,
            color=colour,
            label=op,
            xerr=[lows, highs],
            error_kw={"elinewidth": 0.8, "capsize": 2},
        )
    ax_t.set_xscale("log")
    ax_t.set_xlabel("ns per operation (fast-mode median, 95% CI)")
    ax_t.legend(loc="lower right")
    ax_b.barh(list(y), [r.sizes.get("encoded", 0) for r in ok], color="#999999", label="raw")
    ax_b.barh(
        list(y), [r.sizes.get("zstd", 0) for r in ok], color="#228833", label="zstd", height=0.4
    )
    ax_b.set_xlabel("bytes")
    ax_b.legend(loc="lower right")
    ax_t.set_yticks(list(y), names, fontsize=8)
    ax_t.invert_yaxis()
    fig.suptitle(dataset)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg") :]


def render(rep: report.RunReport) -> str:
    run = rep.run
    cols = _columns(rep)
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>serbench run {run['id']}"
        f"</title><style>{STYLE}</style></head><body>",
        f"<h1>serbench run {run['id']}</h1>",
    ]
    intro = report.markdown(rep).split("\n## ", 1)[0].splitlines()[2:]
    parts.append(
        "<ul>"
        + "".join(f"<li>{html.escape(line[2:])}</li>" for line in intro if line.startswith("- "))
        + "</ul>"
    )
    for dataset, rows in rep.tables.items():
        parts.append(f"<h2>{html.escape(_title(dataset))}</h2>")
        parts.append(f"<div class='chart'>{_chart(dataset, rows)}</div>")
        parts.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in cols) + "</tr>")
        for row in rows:
            cls = {"NG": "NG", "error": "error", "n/a": "na"}.get(row.status, "")
            cells = "".join(f"<td>{html.escape(c)}</td>" for c in _cells(row, rep))
            parts.append(f"<tr class='{cls}'>{cells}</tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)
