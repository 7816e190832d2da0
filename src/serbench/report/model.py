"""The report model: one stored run turned into per-dataset rows with their estimates and
flags. Every rendering (terminal, Markdown, HTML, exports) is built from it."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from serbench import datasets
from serbench.protocol import FLAGS
from serbench.stats import (
    OVERHEAD_FACTOR,
    PRECISION_TARGET,
    Estimate,
    Prior,
    estimate,
    fit_prior,
    process_interval,
)
from serbench.store import Store, decode_json

SLOW_MODE_SHARE = 0.3  # over this share of slices outside the fast mode: a busy machine
# decodes that return an accessor or borrow the input: ranked apart from full decodes
ACCESS_LABELS = frozenset({"lazy-access", "zero-copy-decode"})
SUMMARY_TOP = 3  # the places of a summary's podium
PODIUM_MAX = 6  # a podium lists at most this many rows; further contenders are counted
# flags that read the machine's noise more than a row (intervals wider than the target, slices
# mostly outside the fast mode): on at least this share of a run's measured rows, a report
# says each once in its header instead of on every row (the main job of 2026-11-28 flagged
# imprecise on all 1,320 rows, so the rows' notes hid the flags that set rows apart)
NOISE_FLAGS = ("imprecise", "slow-mode")
RUN_WIDE_SHARE = 0.9
MANY_WITHOUT_FIGURE = 0.05  # over this share of cell operations without a single figure,
# a run is one whose identical re-runs would not agree (FigureCount.many)


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

    @property
    def access(self) -> bool:
        """Its decode is an access (lazy or zero-copy): not comparable to a full decode."""
        return bool(ACCESS_LABELS & set(self.labels))

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
    # per runner, what its cells with a figure say about the variance between fresh
    # processes (stats.fit_prior): the intervals are widened by it, compare tests with it
    priors: dict[str, Prior | None] = field(default_factory=dict)
    # NOISE_FLAGS on nearly every measured row: flag -> (rows with it, measured rows)
    run_wide: dict[str, tuple[int, int]] = field(default_factory=dict)
    # runner -> its runtime as its describe said (a JVM's flags among them): figures of
    # one runtime configuration are not those of another
    runtimes: dict[str, str] = field(default_factory=dict)

    def row_flags(self, row: Row) -> list[tuple[str, str]]:
        """A row's flags as (word, text) for its notes, the run-wide ones left out (the
        header says them once); near-overhead names its operations."""
        return [
            (f, f"near-overhead({','.join(row.near_overhead)})" if f == "near-overhead" else f)
            for f in row.flags
            if f not in self.run_wide
        ]


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
    every_row = [row for rows in tables.values() for row in rows]
    priors = _priors(every_row)
    for row in every_row:
        row.ops = {op: process_interval(e, priors.get(row.runner)) for op, e in row.ops.items()}
        _flag(row, _precision_target(run["config"]))
    for rows in tables.values():
        _flag_overhead(rows)
        rows.sort(key=Row.sort_key)
    order = list(datasets.DATASETS)
    ordered = {
        d: tables[d] for d in sorted(tables, key=lambda d: order.index(d) if d in order else 99)
    }
    unit = "instructions" if run["config"].get("measure") == "instructions" else "ns"
    return RunReport(
        run,
        ordered,
        list(run["config"].get("operations", ["encode", "decode"])),
        unit,
        priors,
        _run_wide(every_row),
        _runtimes(meta.values()),
    )


def _runtimes(serializers: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each runner's runtime, once (every serializer of a runner carries the same one)."""
    by_runner = {s["runner"]: s.get("runtime") or {} for s in serializers}
    return {r: text for r, rt in sorted(by_runner.items()) if (text := _runtime_text(rt))}


def _runtime_text(rt: dict[str, Any]) -> str:
    """Name and version, then the details, unless the details already begin with the name."""
    name, version, details = (str(rt.get(k) or "") for k in ("name", "version", "details"))
    if name and details.startswith(name):
        return details
    head = version if version.startswith(name) else f"{name} {version}".strip()
    return "; ".join(filter(None, (head, details)))


def _run_wide(rows: list[Row]) -> dict[str, tuple[int, int]]:
    """The NOISE_FLAGS on at least RUN_WIDE_SHARE of the measured rows."""
    measured = [r for r in rows if r.status == "ok" and r.ops]
    counts = {f: sum(f in r.flags for r in measured) for f in NOISE_FLAGS}
    return {
        f: (n, len(measured))
        for f, n in counts.items()
        if n and n >= RUN_WIDE_SHARE * len(measured)
    }


def _priors(rows: list[Row]) -> dict[str, Prior | None]:
    """Per runner, the prior its cells with a single figure and more than one process give
    (a cell whose processes disagree would widen every other cell's interval by its JIT's
    split)."""
    found: dict[str, tuple[list[float], list[int]]] = defaultdict(lambda: ([], []))
    for row in rows:
        if row.status != "ok":
            continue
        for e in row.ops.values():
            if e.has_figure and e.process_log_var is not None:
                found[row.runner][0].append(e.process_log_var)
                found[row.runner][1].append(e.processes - 1)
    return {runner: fit_prior(v, d) for runner, (v, d) in found.items()}


def _precision_target(config: dict[str, Any]) -> float:
    """The run's --precision, or the default line for the `imprecise` flag."""
    return (config.get("timing") or {}).get("precision") or PRECISION_TARGET


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


def _flag(row: Row, precision: float = PRECISION_TARGET) -> None:
    if row.status != "ok":
        return
    if any(e.ci_half_width > precision * e.headline_ns for e in row.ops.values()):
        row.flags.append("imprecise")
    if any(e.steady is False for e in row.ops.values()):
        row.flags.append("not-steady")
    if any(e.processes_disagree for e in row.ops.values()):
        row.flags.append("processes-disagree")
    if any(e.unconfirmed and e.steady is not False for e in row.ops.values()):
        row.flags.append("unconfirmed")
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


def decodes(op: str) -> bool:
    """The operation ends in a decode (an access row's is ranked apart)."""
    return op == "decode" or op.endswith("+decode")


def span(e: Estimate) -> tuple[float, float]:
    """The range shown for an operation without a single figure. Processes that disagree:
    the fastest slice of the fastest process to that of the slowest (what `varies X–Y`
    prints). Otherwise (a cell that never settled drifts inside a process too) that joined
    to its 95% interval."""
    if e.processes_disagree and e.steady is not False:
        return e.process_min_ns, e.process_max_ns
    return min(e.process_min_ns, e.ci_low_ns), max(e.process_max_ns, e.ci_high_ns)


REASONS = ("processes disagree", "not steady", "unconfirmed")


def why(e: Estimate) -> str:
    """Why an operation has no single figure, in words ("" when it has one)."""
    reasons = ["processes disagree"] if e.processes_disagree else []
    if e.steady is False:
        reasons.append("not steady")
    if not reasons and not e.has_figure:  # too few processes confirmed their fast mode
        reasons.append("unconfirmed")
    return ", ".join(reasons)


@dataclass
class Place:
    """One row on a podium: its figure with its interval, or (no single figure) its range."""

    row: Row
    low: float  # the 95% interval's low end, or the range's
    high: float
    figure: float | None  # None: no single figure, shown as the range low..high
    why: str = ""  # why there is no single figure
    joint: str = ""  # what joins it to the place before: "<", "≈" or "=" ("" for the first)

    @property
    def order(self) -> float:
        """Its place: by the figure, or by the range's low end."""
        return self.low if self.figure is None else self.figure


@dataclass
class Podium:
    places: list[Place]
    more: int = 0  # further rows that could be among the first (no single figure; or sizes
    # equal to the last place's)


def _eligible(row: Row) -> bool:
    return row.status == "ok" and "baseline" not in row.labels


def time_podium(rows: list[Row], op: str, access: bool = False, top: int = SUMMARY_TOP) -> Podium:
    """The fastest ``top`` of ``op``: every OK, non-baseline row, including those without a
    single figure. A figured row is placed by its headline; a row without one by its range's
    low end, whenever that range could place it among the first ``top`` (its low end below
    the ``top``-th figure's high end, or fewer than ``top`` figured rows). Such a row is
    never left out: one whose low end falls past the first ``top`` places is listed after
    them (up to PODIUM_MAX rows in all, the rest counted in ``more``). A range is `≈` to its
    neighbours, figures `<` only when their intervals do not overlap. For a decoding
    operation, ``access`` picks the access rows (lazy-access, zero-copy-decode) instead of
    the full decodes."""
    figured: list[Place] = []
    ranged: list[Place] = []
    for row in rows:
        e = row.ops.get(op)
        if e is None or not _eligible(row) or (decodes(op) and row.access != access):
            continue
        if e.has_figure:
            figured.append(Place(row, e.ci_low_ns, e.ci_high_ns, e.headline_ns))
        else:
            ranged.append(Place(row, *span(e), None, why(e)))
    figured.sort(key=lambda p: (p.order, p.row.name))
    bar = figured[top - 1].high if len(figured) >= top else math.inf
    merged = sorted(
        figured + [p for p in ranged if p.low < bar], key=lambda p: (p.order, p.row.name)
    )
    later = [p for p in merged[top:] if p.figure is None]
    room = max(PODIUM_MAX - top, 0)
    places = merged[:top] + later[:room]
    for prev, here in zip(places, places[1:], strict=False):
        settled = prev.figure is not None and here.figure is not None
        here.joint = "<" if settled and here.low > prev.high else "≈"
    return Podium(places, len(later) - len(later[:room]))


def size_podium(rows: list[Row], top: int = SUMMARY_TOP) -> Podium:
    """The smallest ``top`` encoded sizes (exact: `=` joins equal ones, `<` the rest); rows
    as small as the last place are listed with it, up to PODIUM_MAX."""
    sized = sorted(
        (
            Place(row, float(n), float(n), float(n))
            for row in rows
            if _eligible(row) and (n := row.sizes.get("encoded")) is not None
        ),
        key=lambda p: (p.order, p.row.name),
    )
    if len(sized) > top:
        last = sized[top - 1].order
        sized = [p for p in sized if p.order <= last]
    places = sized[:PODIUM_MAX]
    for prev, here in zip(places, places[1:], strict=False):
        here.joint = "=" if here.order == prev.order else "<"
    return Podium(places, len(sized) - len(places))


@dataclass
class FigureCount:
    """How much of a run has no single figure: the one count every rendering quotes."""

    operations: int  # OK cell operations with an estimate
    without: int  # of those, the ones with no single figure
    rows: int  # OK rows with an estimate
    rows_without: int  # of those, the ones with some operation without a single figure
    reasons: dict[str, int]  # rows per reason (REASONS), in that order

    @property
    def many(self) -> bool:
        """More than MANY_WITHOUT_FIGURE of the operations: the run itself shows that
        identical runs would not agree, whatever the machine-noise reading said."""
        return self.without > MANY_WITHOUT_FIGURE * self.operations

    def sentence(self) -> str:
        """E.g. "412 of 1,028 rows: processes disagree — shown as ranges" (a not-steady
        cell's table entry is "not steady", with no number: the summary shows its range)."""
        if len(self.reasons) == 1:
            reasons = next(iter(self.reasons))
        else:
            reasons = ", ".join(f"{reason} ({n:,})" for reason, n in self.reasons.items())
        shown = "no single figure" if "not steady" in self.reasons else "shown as ranges"
        return f"{self.rows_without:,} of {self.rows:,} rows: {reasons} — {shown}"


def slow_share(report: RunReport) -> float | None:
    """The share of the run's measured slices outside their operation's fast mode, pooled
    over every measured cell: how much of the run the machine spent in its slow phase, by
    the run's own slices (the noise probe before the run saw 2 s of it). None without
    measured slices."""
    slow = total = 0.0
    for table in report.tables.values():
        for row in table:
            if row.status == "ok":
                for e in row.ops.values():
                    slow += e.slow_fraction * e.slices
                    total += e.slices
    return slow / total if total else None


def figure_count(report: RunReport) -> FigureCount:
    operations = without = rows = rows_without = 0
    reasons: dict[str, int] = {}
    for table in report.tables.values():
        for row in table:
            if row.status != "ok" or not row.ops:
                continue
            rows += 1
            operations += len(row.ops)
            lacking = [e for e in row.ops.values() if not e.has_figure]
            without += len(lacking)
            if lacking:
                rows_without += 1
                found = {w for e in lacking for w in why(e).split(", ")}
                for w in REASONS:
                    if w in found:
                        reasons[w] = reasons.get(w, 0) + 1
    return FigureCount(operations, without, rows, rows_without, reasons)
