"""The report model: one stored run turned into per-dataset rows with their estimates and
flags. Every rendering (terminal, Markdown, HTML, exports) is built from it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from serbench import datasets
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
    unit: str = "ns"  # "instructions": a run with --measure instructions (serbench.instructions)


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
    unit = "instructions" if run["config"].get("measure") == "instructions" else "ns"
    return RunReport(
        run, ordered, list(run["config"].get("operations", ["encode", "decode"])), unit
    )


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
    if any(e.processes_disagree for e in row.ops.values()):
        row.flags.append("processes-disagree")
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
