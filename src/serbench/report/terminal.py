"""Rendering for the terminal (rich)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from serbench.report.model import Row, RunReport
from serbench.report.text import _cells, _columns, _title, fmt_bytes, fmt_ns

# The full table's columns, most wanted first: a narrow terminal drops from the end of this
# list instead of wrapping every cell.
_PRIORITY = ["serializer", "encode", "decode", "check", "bytes", "notes", "zstd", "library"]
_MIN_NOTES = 16  # the notes column is cut to fit, never narrower than this
SUMMARY_TOP = 3  # the fastest / smallest shown per dataset in the summary
LAZY = {"lazy-access", "zero-copy-decode"}  # decodes that defer work: marked, not hidden


def _fit(columns: list[str], rows: list[list[str]], width: int) -> list[int]:
    """Indices of the columns to show, in table order: by priority while they fit."""
    need = {
        i: max([len(c), *(len(r[i]) for r in rows)]) + 3  # padding and the rule
        for i, c in enumerate(columns)
    }
    order = [columns.index(c) for c in _PRIORITY if c in columns]
    order += [i for i in range(len(columns)) if i not in order]
    chosen: list[int] = []
    used = 1
    for i in order:
        cost = min(need[i], _MIN_NOTES) if columns[i] == "notes" else need[i]
        if used + cost <= width or not chosen:
            chosen.append(i)
            used += cost
    return sorted(chosen)


def print_tables(report: RunReport, console: Console | None = None) -> None:
    """Every row of every dataset; the columns that fit the terminal's width."""
    console = console or Console()
    columns = _columns(report)
    hidden: set[str] = set()
    for dataset, rows in report.tables.items():
        cells = [_cells(row, report, with_min=False) for row in rows]
        shown = _fit(columns, cells, console.width)
        hidden |= {c for i, c in enumerate(columns) if i not in shown}
        table = Table(title=_title(dataset), title_justify="left", box=box.SIMPLE_HEAD)
        for i in shown:
            notes = columns[i] == "notes"
            table.add_column(columns[i], no_wrap=not notes, overflow="ellipsis", max_width=None)
        for row, row_cells in zip(rows, cells, strict=True):
            style = {"NG": "red", "error": "red", "n/a": "dim"}.get(row.status)
            table.add_row(*(row_cells[i] for i in shown), style=style)
        console.print(table)
    console.print(
        "[dim]times per operation on the whole dataset: fast-mode median of the slices ±95% CI "
        "half-width; minima and every column in --format md / html; see docs/method.md[/dim]"
    )
    if hidden:
        kept = [c for c in columns if c in hidden]
        console.print(
            f"[dim]not shown at this width: {', '.join(kept)} "
            "(a wider terminal, or --format md / html)[/dim]"
        )


def _ranked(rows: list[Row], key: Callable[[Row], float | None]) -> list[tuple[Row, float]]:
    """OK, steady, non-baseline rows with a value, best first."""
    out = []
    for row in rows:
        unsettled = {"not-steady", "processes-disagree"} & set(row.flags)
        if row.status != "ok" or "baseline" in row.labels or unsettled:
            continue
        value = key(row)
        if value is not None:
            out.append((row, value))
    return sorted(out, key=lambda t: t[1])


def _podium(ranked: list[tuple[Row, float]], op: str | None, unit: str = "ns") -> Text:
    """The first few, `≈` between neighbours whose intervals overlap (no decided order)."""
    text = Text()
    for k, (row, value) in enumerate(ranked[:SUMMARY_TOP]):
        if k:
            prev = ranked[k - 1][0].ops.get(op) if op else None
            here = row.ops.get(op) if op else None
            tie = prev is not None and here is not None and here.ci_low_ns <= prev.ci_high_ns
            text.append(" ≈ " if tie else " < ", style="dim")
        text.append(row.name, style="bold" if k == 0 else "")
        named = "lazy" in row.name or "access" in row.name
        if op == "decode" and LAZY & set(row.labels) and not named:
            text.append(" (lazy)", style="dim")
        text.append(f" {fmt_ns(value, unit) if op else fmt_bytes(int(value)) + ' B'}", style="cyan")
    if not ranked:
        text.append("-", style="dim")
    return text


def _counts(rows: list[Row], quick: bool) -> Text:
    text = Text()
    for status, label, style in (
        ("ok", "OK", "green"),
        ("NG", "NG", "bold red"),
        ("error", "error", "red"),
        ("n/a", "n/a", "dim"),
    ):
        n = sum(r.status == status for r in rows)
        if n or status == "ok":
            text.append(f"{n} {label}", style=style if n else "dim")
            text.append("  ")
    # a quick run's intervals are wide by design: only a standard run's imprecision matters
    flags = ("not-steady", "processes-disagree") + (() if quick else ("imprecise",))
    flagged = {f: sum(f in r.flags for r in rows) for f in flags}
    for flag, n in flagged.items():
        if n:
            text.append(f"{n} {flag}  ", style="yellow")
    return text


def print_summary(report: RunReport, console: Console | None = None) -> None:
    """One screen: per dataset the fastest few per operation, the smallest, the checks, and
    the rows that failed theirs."""
    console = console or Console()
    console.print(
        Rule(f"run {report.run['id']} ({report.run['config'].get('scale')}): summary", style="dim")
    )
    quick = report.run["config"].get("scale") == "quick"
    for dataset, rows in report.tables.items():
        _line(console, "", Text(_short_title(dataset) + "  ", style="bold") + _counts(rows, quick))
        for op in ("encode", "decode"):
            ranked = _ranked(rows, lambda r, op=op: r.ops[op].headline_ns if op in r.ops else None)
            _line(console, f"  {op:7}", _podium(ranked, op, report.unit))
        smallest = _ranked(rows, lambda r: r.sizes.get("encoded"))
        _line(console, "  bytes  ", _podium(smallest, None))
        failed = [r for r in rows if r.status in ("NG", "error")]
        for row in failed[:2]:
            detail = " ".join(row.detail.split())  # one line, whatever the library printed
            _line(console, "  NG     ", Text(f"{row.name}: {detail}", style="red"))
        if len(failed) > 2:
            _line(console, "  NG     ", Text(f"... and {len(failed) - 2} more", style="red"))
    console.print(
        "[dim]fastest first: fast-mode median per operation on the whole dataset; ≈ marks "
        "overlapping 95% intervals (no decided order); baselines and cells without a single "
        "figure (not-steady, processes-disagree) left out. "
        f"All rows: serbench report {report.run['id']}[/dim]"
    )


def _short_title(dataset: str) -> str:
    title = _title(dataset)
    return title.split(":", 1)[0] if ":" in title else title


def _line(console: Console, head: str, body: Text) -> None:
    """One line, cut to the terminal's width rather than wrapped."""
    line = Text(head, style="dim") + body
    line.truncate(console.width, overflow="ellipsis")
    console.print(line, no_wrap=True, overflow="ellipsis")


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
