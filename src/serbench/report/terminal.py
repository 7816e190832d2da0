"""Rendering for the terminal (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from serbench.report.model import RunReport
from serbench.report.text import _cells, _columns, _title, fmt_ns


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
