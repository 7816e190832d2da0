"""The interactive HTML report: one self-contained file, explored in a browser.

The report model is turned into one JSON document embedded in the page; a small script
(assets/report.js) draws, per dataset, a sortable and filterable table and charts (plotly,
inlined from the Python package, so the file needs no network when viewed). Numbers are
formatted here, by the text helpers every rendering shares; the page only computes what
depends on the rows in view (% of the best one) and never parses user strings as HTML.
"""

from __future__ import annotations

import json
import math
import re
from importlib.resources import files
from typing import Any

from serbench.operations import CODECS
from serbench.protocol import FLAGS, LABELS
from serbench.report import untrusted_tab
from serbench.report.model import Row, RunReport, decodes, span, why
from serbench.report.text import _title, agreement_facts, fmt_bytes, fmt_kib, fmt_ns, fmt_span
from serbench.stats import Estimate

ASSETS = files("serbench.report") / "assets"
STATUS_TEXT = {"ok": "OK", "NG": "NG", "n/a": "n/a", "error": "ERR"}

# "<", ">" and "&" cannot end the <script> block or start a comment; U+2028/9 are escaped
# for the older JavaScript parsers that treat them as line ends inside strings.
_SCRIPT_SAFE = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)
_MARKER = re.compile(r"<!--serbench:\w+-->|/\*serbench:\w+\*/")


def _finite(value: Any) -> Any:
    """NaN and infinities (no JSON for them) become null: the page shows "-"."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def script_json(value: Any) -> str:
    """JSON that can sit inside <script type="application/json"> whatever its strings hold."""
    text = json.dumps(_finite(value), ensure_ascii=False, allow_nan=False)
    return text.translate(_SCRIPT_SAFE)


def _inline_js(source: str, what: str) -> str:
    lowered = source.lower()
    if "</script" in lowered or "<!--" in lowered:
        raise ValueError(f"{what} cannot be inlined in a <script> element")
    return source


def _estimate(e: Estimate, measure: str) -> dict[str, Any]:
    shown = e.has_figure
    pct = 100 * e.ci_half_width / e.headline_ns if e.headline_ns else 0.0
    text = f"{fmt_ns(e.headline_ns, measure)} ±{pct:.1f}%"
    if not shown:
        text = "not steady" if e.steady is False else f"varies {fmt_span(*span(e), measure)}"
    return {
        "ns": e.headline_ns if shown else None,  # no single figure: nothing to rank
        "lo": e.ci_low_ns,
        "hi": e.ci_high_ns,
        "range": None if shown else list(span(e)),  # a hatched bar over it, not from zero
        "why": why(e),
        "text": text,
        "tip": (
            f"fast-edge median {fmt_ns(e.headline_ns, measure)}, 95% interval "
            f"{fmt_ns(e.ci_low_ns, measure)} to {fmt_ns(e.ci_high_ns, measure)}, "
            f"min {fmt_ns(e.min_ns, measure)}, "
            f"{e.slices} slices from {e.processes} process(es)"
        ),
    }


def _alloc(row: Row) -> float | None:
    per_op = [e.alloc_bytes for e in row.ops.values() if e.alloc_bytes is not None]
    peaks = [e.peak_alloc_bytes for e in row.ops.values() if e.peak_alloc_bytes is not None]
    return per_op[0] if per_op else (peaks[0] if peaks else None)


def _row(row: Row, measure: str, flags: list[tuple[str, str]]) -> dict[str, Any]:
    ops = row.ops.values()
    slow = max((e.slow_fraction for e in ops), default=None)
    spread = max((e.process_spread for e in ops), default=None)
    alloc = _alloc(row)
    return {
        "runner": row.runner,
        "serializer": row.serializer,
        "name": row.name,
        "format": row.format,
        "library": f"{row.library} {row.version}".strip(),
        "labels": row.labels,
        "baseline": "baseline" in row.labels,
        "access": row.access,  # its decodes are ranked among access rows only
        "status": STATUS_TEXT[row.status],
        "detail": row.detail,
        "flags": [text for _, text in flags],
        "flag_words": [word for word, _ in flags],
        "ops": {op: _estimate(e, measure) for op, e in row.ops.items()},
        "sizes": row.sizes,
        "sizes_text": {k: fmt_bytes(v) for k, v in row.sizes.items()},
        "alloc": alloc,
        "alloc_text": fmt_bytes(int(alloc)) if alloc is not None else "-",
        "footprint": row.footprint_bytes,
        "footprint_text": fmt_kib(row.footprint_bytes),
        "stability": slow,
        "stability_text": "-" if slow is None else f"{100 * slow:.0f}% / ±{100 * spread:.1f}%",
    }


def _header(rep: RunReport) -> dict[str, Any]:
    run, env = rep.run, rep.run.get("environment") or {}
    commit = (env.get("git_commit") or "unknown")[:12]
    commit += " (dirty)" if env.get("git_dirty") else ""
    memory = env.get("memory_kib")
    facts = [
        ("started", run.get("started_at")),
        ("finished", run.get("finished_at")),
        ("status", run.get("status")),
        ("scale", run["config"].get("scale")),
        ("operations", ", ".join(rep.operations)),
        ("machine", f"{env.get('cpu_model')} ({env.get('cpu_count')} CPUs)"),
        ("memory", f"{memory / 1024**2:.1f} GiB" if memory else None),
        ("kernel", env.get("kernel")),
        ("governor", env.get("governor") or "n/a"),
        ("serbench", f"{env.get('serbench') or 'version unknown'} at {commit}"),
        *((f"runtime: {runner}", text) for runner, text in rep.runtimes.items()),
        # the noise probe's reading, only while the run does not contradict it
        *agreement_facts(rep),
    ]
    return {
        "id": run["id"],
        "facts": [[k, str(v)] for k, v in facts if v is not None],
    }


def payload(rep: RunReport) -> dict[str, Any]:
    """Everything the page shows, as plain JSON."""
    datasets = []
    for name, rows in rep.tables.items():
        datasets.append(
            {
                "name": name,
                "title": _title(name),
                "rows": [_row(r, rep.unit, rep.row_flags(r)) for r in rows],
            }
        )
    return {
        "run": _header(rep),
        "measure": rep.unit,  # "ns", or "instructions": counts, not times
        "operations": rep.operations,
        "access_ops": [op for op in rep.operations if decodes(op)],
        "codecs": list(CODECS),
        "flags": FLAGS,
        "labels": LABELS,
        "datasets": datasets,
        # the latest conformance, robustness and crosscheck reports: a tab of their own
        "untrusted": untrusted_tab.payload(),
    }


def render(rep: RunReport) -> str:
    import plotly.offline  # imported here: only the HTML report needs it

    page = (ASSETS / "report.html").read_text(encoding="utf-8")
    parts = {
        "<!--serbench:title-->": f"serbench run {int(rep.run['id'])}",
        "/*serbench:style*/": (ASSETS / "report.css").read_text(encoding="utf-8"),
        "/*serbench:plotly*/": _inline_js(plotly.offline.get_plotlyjs(), "plotly.js"),
        "/*serbench:untrusted*/": _inline_js(
            (ASSETS / "untrusted.js").read_text(encoding="utf-8"), "untrusted.js"
        ),
        "/*serbench:script*/": _inline_js(
            (ASSETS / "report.js").read_text(encoding="utf-8"), "report.js"
        ),
        "/*serbench:data*/": script_json(payload(rep)),
    }
    missing = [m for m in parts if m not in page]
    if missing:
        raise ValueError(f"report.html lacks {', '.join(missing)}")
    # one pass over the template: inserted text is never searched for markers
    return _MARKER.sub(lambda m: parts[m.group()], page)
