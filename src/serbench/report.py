"""Turns one stored run into per-dataset tables: terminal (rich), Markdown and JSON."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from serbench import datasets
from serbench.operations import CODECS
from serbench.protocol import FLAGS
from serbench.stats import OVERHEAD_FACTOR, Estimate, estimate
from serbench.store import Store, decode_json

SLOW_MODE_SHARE = 0.3  # over this share of slices outside the fast mode: a busy machine


@dataclass
class Row:
    runner: str
    serializer: str
    format: str = ""
    library: str = ""
    version: str = ""
    labels: list[str] = field(default_factory=list)
    footprint_bytes: int | None = None
    status: str = "ok"  # ok | NG | n/a | error
    detail: str = ""
    sizes: dict[str, int] = field(default_factory=dict)
    ops: dict[str, Estimate] = field(default_factory=dict)
    raw: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # timings per operation
    flags: list[str] = field(default_factory=list)  # from the vocabulary (protocol.FLAGS)
    near_overhead: list[str] = field(default_factory=list)  # operations under 5x the noop

    @property
    def name(self) -> str:
        return f"{self.runner}/{self.serializer}"

    def sort_key(self) -> tuple[Any, ...]:
        rank = {"ok": 0, "NG": 1, "error": 2, "n/a": 3}[self.status]
        total = sum(e.headline_ns for op, e in self.ops.items() if op in ("encode", "decode"))
        return (rank, "baseline" not in self.labels, total or float("inf"), self.name)


@dataclass
class RunReport:
    run: dict[str, Any]
    tables: dict[str, list[Row]]  # dataset -> rows
    operations: list[str]


def build(store: Store, run_id: int | None = None) -> RunReport:
    run_row = store.run(run_id)
    if run_row is None:
        raise LookupError("no runs in the database yet" if run_id is None else f"no run {run_id}")
    run = decode_json([run_row], "config", "environment")[0]
    meta = {
        (s["runner"], s["name"]): s
        for s in decode_json(store.serializers(run["id"]), "labels", "runtime")
    }
    grouped: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in decode_json(store.results(run["id"]), "sizes", "timing"):
        grouped[(r["dataset"], r["runner"], r["serializer"])].append(r)
    tables: dict[str, list[Row]] = defaultdict(list)
    for (dataset, runner, serializer), results in grouped.items():
        m = meta.get((runner, serializer), {})
        row = Row(
            runner,
            serializer,
            m.get("format") or "",
            m.get("library") or "",
            m.get("version") or "",
            m.get("labels") or [],
            m.get("footprint_bytes"),
        )
        _fill(row, results)
        tables[dataset].append(row)
    for rows in tables.values():
        _flag_overhead(rows)
        rows.sort(key=Row.sort_key)
    order = list(datasets.DATASETS)
    ordered = {
        d: tables[d] for d in sorted(tables, key=lambda d: order.index(d) if d in order else 99)
    }
    return RunReport(run, ordered, list(run["config"].get("operations", ["encode", "decode"])))


def _fill(row: Row, results: list[dict[str, Any]]) -> None:
    statuses = {r["status"] for r in results}
    if "check_failed" in statuses or any(r["check_ok"] == 0 for r in results):
        row.status = "NG"
        row.detail = next((r["check_detail"] for r in results if r["check_detail"]), "")
    elif statuses == {"not_applicable"}:
        row.status, row.detail = "n/a", results[0]["error_message"] or ""
    elif statuses - {"ok", "unsupported"}:
        row.status = "error"
        bad = next(r for r in results if r["status"] not in ("ok", "unsupported"))
        row.detail = f"{bad['error_code']}: {bad['error_message']}"
    sizes = next((r["sizes"] for r in results if r["sizes"]), None)
    row.sizes = sizes or {}
    if row.status != "ok":
        return
    by_op: dict[str, list[dict[str, Any]]] = defaultdict(list)
    messages = 1
    for r in results:
        if r["status"] == "ok" and r["timing"]:
            by_op[r["operation"]].append(r["timing"])
            messages = r["messages"] or 1
    row.raw = dict(by_op)
    for op, timings in by_op.items():
        est = estimate(timings, messages)
        if est is not None:
            row.ops[op] = est
    if any(not e.precise for e in row.ops.values()):
        row.flags.append("imprecise")
    if any(e.steady is False for e in row.ops.values()):
        row.flags.append("not-steady")
    if any(e.slow_fraction > SLOW_MODE_SHARE for e in row.ops.values()):
        row.flags.append("slow-mode")
    assert set(row.flags) <= set(FLAGS), row.flags


def _flag_overhead(rows: list[Row]) -> None:
    noops = {r.runner: r for r in rows if r.serializer == "noop" and r.status == "ok"}
    for row in rows:
        base = noops.get(row.runner)
        if base is None or row is base:
            continue
        for op, est in row.ops.items():
            b = base.ops.get(op)
            if b and est.headline_ns < OVERHEAD_FACTOR * b.headline_ns:
                if "near-overhead" not in row.flags:
                    row.flags.append("near-overhead")
                row.near_overhead.append(op)


def fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_bytes(n: int | None) -> str:
    if n is None:
        return "-"
    return f"{n:,}"


def fmt_kib(n: int | None) -> str:
    return "-" if n is None else f"{n / 1024:,.0f} KiB"


def fmt_est(e: Estimate | None) -> str:
    if e is None:
        return "-"
    if e.steady is False:
        return f"not steady (min {fmt_ns(e.min_ns)})"
    pct = 100 * e.ci_half_width / e.headline_ns if e.headline_ns else 0
    return f"{fmt_ns(e.headline_ns)} ±{pct:.1f}% (min {fmt_ns(e.min_ns)})"


def _stability(row: Row) -> str:
    """Worst share of slices outside the fast mode / widest spread between processes."""
    if not row.ops:
        return "-"
    slow = max(e.slow_fraction for e in row.ops.values())
    spread = max(e.process_spread for e in row.ops.values())
    return f"{100 * slow:.0f}% / ±{100 * spread:.1f}%"


def _check(row: Row) -> str:
    return {"ok": "OK", "NG": "NG", "n/a": "n/a", "error": "ERR"}[row.status]


def _columns(report: RunReport) -> list[str]:
    extra = [op for op in report.operations if op not in ("encode", "decode")]
    return [
        "serializer",
        "library",
        "encode",
        "decode",
        *extra,
        "bytes",
        "zlib",
        "zstd",
        "lz4",
        "alloc/op",
        "footprint",
        "stability",
        "check",
        "notes",
    ]


def _cells(row: Row, report: RunReport) -> list[str]:
    extra = [op for op in report.operations if op not in ("encode", "decode")]
    alloc = next((e.alloc_bytes for e in row.ops.values() if e.alloc_bytes is not None), None)
    if alloc is None:
        alloc = next(
            (e.peak_alloc_bytes for e in row.ops.values() if e.peak_alloc_bytes is not None), None
        )
    flags = [
        f"near-overhead({','.join(row.near_overhead)})" if f == "near-overhead" else f
        for f in row.flags
    ]
    notes = row.detail if row.status != "ok" else ", ".join(flags)
    labels = [
        lab
        for lab in row.labels
        if lab
        in ("zero-copy-decode", "lazy-access", "positional", "baseline", "unsafe-untrusted-input")
    ]
    if labels:
        notes = "; ".join(x for x in (notes, " ".join(labels)) if x)
    return [
        row.name,
        f"{row.library} {row.version}".strip(),
        fmt_est(row.ops.get("encode")),
        fmt_est(row.ops.get("decode")),
        *(fmt_est(row.ops.get(op)) for op in extra),
        fmt_bytes(row.sizes.get("encoded")),
        *(fmt_bytes(row.sizes.get(c)) for c in CODECS),
        fmt_bytes(int(alloc)) if alloc is not None else "-",
        fmt_kib(row.footprint_bytes),
        _stability(row),
        _check(row),
        notes[:120],
    ]


def _title(dataset: str) -> str:
    try:
        spec = datasets.get(dataset)
        return f"{spec.scenario} {dataset}: {spec.title}"
    except datasets.UnknownName:
        return dataset


def print_tables(report: RunReport, console: Console | None = None) -> None:
    console = console or Console()
    for dataset, rows in report.tables.items():
        table = Table(title=_title(dataset), title_justify="left", show_lines=False)
        for col in _columns(report):
            table.add_column(col, overflow="fold")
        for row in rows:
            style = {"NG": "red", "error": "red", "n/a": "dim"}.get(row.status)
            table.add_row(*_cells(row, report), style=style)
        console.print(table)
    console.print(
        "[dim]times per operation on the whole dataset: fast-mode median of the slices ±95% CI "
        "half-width (min); see docs/method.md[/dim]"
    )


def markdown(report: RunReport) -> str:
    run, env = report.run, report.run["environment"]
    lines = [
        f"# serbench run {run['id']}",
        "",
        f"- started {run['started_at']}, status {run['status']}, scale "
        f"{run['config'].get('scale')}, operations {', '.join(report.operations)}",
        f"- machine: {env.get('cpu_model')} ({env.get('cpu_count')} CPUs), kernel "
        f"{env.get('kernel')}, governor {env.get('governor') or 'n/a'}",
        f"- serbench {env.get('serbench')} at {(env.get('git_commit') or 'unknown')[:12]}"
        f"{' (dirty)' if env.get('git_dirty') else ''}",
        "- times: per operation on the whole dataset, fast-mode median ±95% CI half-width (min);"
        " method in docs/method.md",
        "- stability: share of slices outside the fast mode / spread of the per-process"
        " headlines; noop rows are the harness overhead",
        "",
    ]
    cols = _columns(report)
    for dataset, rows in report.tables.items():
        lines += [
            f"## {_title(dataset)}",
            "",
            "| " + " | ".join(cols) + " |",
            "|" + "---|" * len(cols),
        ]
        for row in rows:
            cells = [c.replace("|", "\\|") for c in _cells(row, report)]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines += overhead_markdown(report)
    return "\n".join(lines)


def overhead(report: RunReport) -> list[tuple[str, str, Estimate | None, Estimate | None, int]]:
    """(runner, dataset, noop encode, noop decode, messages) for every runner's noop row."""
    out = []
    for dataset, rows in report.tables.items():
        for row in rows:
            if row.serializer == "noop" and row.ops:
                msgs = (
                    next(iter(row.ops.values())).headline_ns
                    / next(iter(row.ops.values())).per_message_ns
                )
                out.append(
                    (row.runner, dataset, row.ops.get("encode"), row.ops.get("decode"), round(msgs))
                )
    return sorted(out, key=lambda t: (t[0], t[1]))


def overhead_markdown(report: RunReport) -> list[str]:
    rows = overhead(report)
    if not rows:
        return []
    lines = [
        "## Harness overhead (the noop serializer through the same loop)",
        "",
        "| runner | dataset | encode | decode | per message (encode / decode) |",
        "|---|---|---|---|---|",
    ]
    for runner, dataset, enc, dec, msgs in rows:
        per = " / ".join(fmt_ns(e.per_message_ns) if e else "-" for e in (enc, dec))
        lines.append(
            f"| {runner} | {dataset} | {fmt_est(enc)} | {fmt_est(dec)} | "
            f"{per if msgs > 1 else '-'} |"
        )
    return [*lines, ""]


def as_json(report: RunReport) -> str:
    out = {
        "run": report.run,
        "datasets": {
            ds: [
                {
                    "runner": r.runner,
                    "serializer": r.serializer,
                    "format": r.format,
                    "library": r.library,
                    "version": r.version,
                    "labels": r.labels,
                    "footprint_bytes": r.footprint_bytes,
                    "check": r.status,
                    "detail": r.detail,
                    "sizes": r.sizes,
                    "flags": r.flags,
                    "operations": {op: e.as_dict() for op, e in r.ops.items()},
                }
                for r in rows
            ]
            for ds, rows in report.tables.items()
        },
    }
    return json.dumps(out, indent=2)


def print_noise(n: dict[str, Any], console: Console) -> None:
    """`serbench noise`'s findings, and what they mean for a run."""
    table = Table("measure", "value", title="machine noise", title_justify="left")
    table.add_row("watched", f"{n['seconds']:.1f} s, {n['samples']} samples of ~10 ms")
    table.add_row("fast phase", fmt_ns(n["fast_ns"]) + " per operation")
    if n["slow_ns"]:
        table.add_row(
            "slow phase",
            f"{fmt_ns(n['slow_ns'])} ({n['slow_ns'] / n['fast_ns']:.2f}x), "
            f"{100 * n['slow_share']:.0f}% of the time",
        )
    else:
        table.add_row("slow phase", "none seen")
    if n["phase_seconds_median"] is not None:
        table.add_row(
            "phases",
            f"{n['switches_per_minute']:.0f} switches a minute; a phase lasts "
            f"{n['phase_seconds_median']:.2f} s (median), {n['phase_seconds_max']:.1f} s at most",
        )
    for runner, ns in n.get("sample_cost_ns", {}).items():
        table.add_row(f"{runner}: one timed sample", fmt_ns(ns) + " (clocks + one noop)")
    table.add_row(
        "a standard run can expect",
        f"headlines within about ±{100 * n['expected_spread']:.1f}% of each other between "
        "identical runs (this series, replayed through the scheduler's sampling)",
    )
    console.print(table)
