"""Rendering for the terminal (rich)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from serbench.report.model import (
    Podium,
    Row,
    RunReport,
    figure_count,
    size_podium,
    slow_share,
    time_podium,
)
from serbench.report.text import (
    SUMMARY_NOTE,
    _cells,
    _columns,
    _title,
    during_the_run,
    fmt_ns,
    podium_parts,
)

# The full table's columns, most wanted first: a narrow terminal drops from the end of this
# list instead of wrapping every cell.
_PRIORITY = ["serializer", "encode", "decode", "check", "bytes", "notes", "zstd", "library"]
_MIN_NOTES = 16  # the notes column is cut to fit, never narrower than this


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
        "[dim]times per operation on the whole dataset: fast-edge median of the slices ±95% CI "
        "half-width; minima and every column in --format md / html; see docs/method.md[/dim]"
    )
    if hidden:
        kept = [c for c in columns if c in hidden]
        console.print(
            f"[dim]not shown at this width: {', '.join(kept)} "
            "(a wider terminal, or --format md / html)[/dim]"
        )


_STYLES = {
    "joint": "dim",
    "first": "bold",
    "name": "",
    "value": "cyan",
    "range": "yellow",
    "why": "dim",
    "more": "dim yellow",
}


def _entries(podium: Podium, unit: str | None) -> list[Text]:
    """The podium's places, each with the joint before it (`≈` between neighbours with no
    decided order, `=` between equal sizes), rows without a single figure with their range;
    the reason for a range is a piece of its own, so a narrow line may wrap before it."""
    entries: list[Text] = []
    for piece, role in podium_parts(podium, unit):
        if role in ("joint", "more", "why") or not entries:
            entries.append(Text())
        entries[-1].append(piece, style=_STYLES[role])
    return entries


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
    flags = ("not-steady", "processes-disagree", "unconfirmed") + (() if quick else ("imprecise",))
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
            _wrapped(console, f"  {op:7}", _entries(time_podium(rows, op), report.unit))
        access = time_podium(rows, "decode", access=True)
        if access.places:  # decodes of access rows, ranked apart
            _wrapped(console, "  access ", _entries(access, report.unit))
        _wrapped(console, "  bytes  ", _entries(size_podium(rows), None))
        failed = [r for r in rows if r.status in ("NG", "error")]
        for row in failed[:2]:
            detail = " ".join(row.detail.split())  # one line, whatever the library printed
            _line(console, "  NG     ", Text(f"{row.name}: {detail}", style="red"))
        if len(failed) > 2:
            _line(console, "  NG     ", Text(f"... and {len(failed) - 2} more", style="red"))
    count = figure_count(report)
    if count.many:  # why so many: the machine, in the run's own slices
        share = slow_share(report)
        why = f"; the machine: {during_the_run(share)}" if share is not None else ""
        console.print(Text(count.sentence() + why, style="yellow"))
    console.print(Text(f"{SUMMARY_NOTE}. All rows: serbench report {report.run['id']}", "dim"))


def _short_title(dataset: str) -> str:
    title = _title(dataset)
    return title.split(":", 1)[0] if ":" in title else title


def _wrapped(console: Console, head: str, entries: list[Text]) -> None:
    """A podium: its places on as many lines as the width needs, each line cut at a place's
    boundary, continuation lines indented under the first place (a place is never dropped
    for lack of room)."""
    line = Text(head, style="dim")
    for entry in entries:
        if line.cell_len + entry.cell_len > console.width and line.cell_len > len(head):
            _line(console, "", line)
            line = Text(" " * len(head))
        line.append_text(entry)
    _line(console, "", line)


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
        "identical runs, replayed",
        f"headlines within about ±{100 * n['expected_spread']:.1f}% of each other, this "
        "series replayed through the scheduler's sampling: a reading of the machine's noise "
        "while watched, not a promise for a run (a run's own cells say whether they agree: "
        "processes-disagree, not-steady)",
    )
    console.print(table)
