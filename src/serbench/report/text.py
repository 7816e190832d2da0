"""Numbers and cells as text, shared by the terminal and Markdown renderings."""

from __future__ import annotations

from typing import Any

from serbench import datasets
from serbench.operations import CODECS
from serbench.protocol import FLAGS
from serbench.report.model import Podium, Row, RunReport, figure_count, slow_share, span
from serbench.stats import Estimate

# The summary's footnote (terminal and Markdown): what its lines rank and how.
SUMMARY_NOTE = (
    "fastest first (fast-edge median per operation); ≈: overlapping 95% intervals or a range, "
    "no decided order; a cell without a single figure (processes disagree, unconfirmed, "
    "not steady) shows its range, placed by its low end, whenever it could be among the "
    "first three; access: lazy-access and zero-copy-decode rows, ranked apart from full "
    "decodes; bytes: = for equal sizes; baselines left out"
)


def fmt_ns(ns: float | None, unit: str = "ns") -> str:
    if ns is None:
        return "-"
    if unit == "instructions":
        for prefix, scale in (("M", 1e6), ("k", 1e3)):
            if ns >= scale:
                return f"{ns / scale:.4g}{prefix} instr"
        return f"{ns:.4g} instr"
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


def fmt_span(low: float, high: float, unit: str = "ns") -> str:
    """low–high, the unit once when both ends share it: "3.1–4.9 µs"."""
    a, b = fmt_ns(low, unit), fmt_ns(high, unit)
    a_num, _, a_unit = a.partition(" ")
    b_num, _, b_unit = b.partition(" ")
    return f"{a_num}–{b}" if a_unit == b_unit else f"{a}–{b}"


def podium_parts(podium: Podium, unit: str | None) -> list[tuple[str, str]]:
    """A podium as (text, role) pieces for the terminal and Markdown to style: roles
    joint, first, name, value, range, why and more. ``unit`` None: sizes in bytes."""
    parts: list[tuple[str, str]] = []
    for k, place in enumerate(podium.places):
        if k:
            parts.append((f" {place.joint} ", "joint"))
        parts.append((place.row.name, "first" if k == 0 else "name"))
        if place.figure is None:
            parts.append((f" varies {fmt_span(place.low, place.high, unit or 'ns')}", "range"))
            parts.append((f" ({place.why})", "why"))
        elif unit is None:
            parts.append((f" {fmt_bytes(int(place.figure))} B", "value"))
        else:
            parts.append((f" {fmt_ns(place.figure, unit)}", "value"))
    if podium.more and unit is None:
        parts.append((f" = {podium.more} more of that size", "more"))
    elif podium.more:
        parts.append((f" ≈ {podium.more} more without a single figure that may be as fast", "more"))
    return parts or [("-", "joint")]


def stretch_words(noise: dict[str, Any]) -> str:
    """A probe that ran in a slow stretch (noise.against_record), in words."""
    ratio = noise["fast_ns"] / noise["fast_ns_on_record"]
    return (
        f"a slow stretch: the probe's fastest phase ran {ratio:.1f}x slower than the fastest "
        "one on record for this machine, so the run may find no fast phase to measure; it "
        "starts from the most slow share, and each operation takes more slices before its "
        "fastest counts as its fast mode"
    )


def measured_again(blocks: list[dict[str, Any]]) -> str | None:
    """The blocks a run measured again after a slow stretch (orchestrate.remeasure_stretched),
    in words; None if it measured none again."""
    first = [b for b in blocks if b.get("measured_again")]
    if not first:
        return None
    second = {tuple(b["datasets"]): b["stretch"] for b in blocks if b.get("again")}

    def pace(x: float | None) -> str:
        return "?" if x is None else f"{x:.2f}x"

    said = "; ".join(
        f"{', '.join(names)} {pace(b['stretch'])}, again {pace(second.get(names))}"
        for b in first
        for names in [tuple(b["datasets"])]
    )
    return (
        f"{said} (the reference cell's time in the block against the run's fastest block; "
        "the second block's results replace the first's)"
    )


def during_the_run(share: float) -> str:
    """The run's own slow share in words (model.slow_share)."""
    return f"{100 * share:.0f}% of the run's measured slices outside their cell's fast mode"


def agreement_facts(report: RunReport) -> list[tuple[str, str]]:
    """What a report's header says about the machine and the run's agreement: the noise
    probe's measured facts before the run (its slow share and phases, not a prediction of
    how identical runs would agree: identical quick runs on a noisy machine moved by up to
    ±20% on 2026-11-25 while the probe's replay said ±2%), and how many rows have no single
    figure."""
    count = figure_count(report)
    noise = (report.run.get("environment") or {}).get("noise") or {}
    facts: list[tuple[str, str]] = []
    share, fast, slow = noise.get("slow_share"), noise.get("fast_ns"), noise.get("slow_ns")
    if share is not None:
        text = f"in its slow phase {100 * share:.0f}% of a {noise.get('seconds', 2):.0f} s probe"
        if slow and fast:
            text += f", {slow / fast:.1f}x slower"
        if noise.get("phase_seconds_median"):
            text += f"; phases of {1000 * noise['phase_seconds_median']:.0f} ms (median)"
        if noise.get("slow_stretch"):
            text += f"; {stretch_words(noise)}"
        facts.append(("machine noise before the run", text))
    during = slow_share(report)
    if during is not None:
        facts.append(("machine noise during the run", during_the_run(during)))
    again = measured_again((report.run.get("environment") or {}).get("blocks") or [])
    if again:
        facts.append(("measured again after a slow stretch", again))
    if count.rows_without:
        facts.append(("without a single figure", count.sentence()))
    if report.run_wide:
        said = "; ".join(
            f"{flag} ({n:,} of {total:,} measured rows): {FLAGS[flag]}"
            for flag, (n, total) in report.run_wide.items()
        )
        facts.append(("on nearly every row, so said here once", said))
    return facts


def fmt_est(e: Estimate | None, with_min: bool = True, unit: str = "ns") -> str:
    """Headline ±95% half-width, and the minimum unless the cell must stay narrow."""
    if e is None:
        return "-"
    if e.steady is False:
        return f"not steady (min {fmt_ns(e.min_ns, unit)})" if with_min else "not steady"
    if not e.has_figure:
        return f"varies {fmt_span(*span(e), unit)}"
    pct = 100 * e.ci_half_width / e.headline_ns if e.headline_ns else 0
    text = f"{fmt_ns(e.headline_ns, unit)} ±{pct:.1f}%"
    return f"{text} (min {fmt_ns(e.min_ns, unit)})" if with_min else text


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


def _cells(row: Row, report: RunReport, with_min: bool = True) -> list[str]:
    extra = [op for op in report.operations if op not in ("encode", "decode")]
    alloc = next((e.alloc_bytes for e in row.ops.values() if e.alloc_bytes is not None), None)
    if alloc is None:
        alloc = next(
            (e.peak_alloc_bytes for e in row.ops.values() if e.peak_alloc_bytes is not None), None
        )
    flags = [text for _, text in report.row_flags(row)]
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
        fmt_est(row.ops.get("encode"), with_min, report.unit),
        fmt_est(row.ops.get("decode"), with_min, report.unit),
        *(fmt_est(row.ops.get(op), with_min, report.unit) for op in extra),
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
