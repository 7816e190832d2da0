"""Renderings of a comparison of two runs (serbench.compare): terminal, Markdown, JSON."""

from __future__ import annotations

import json
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from serbench.compare import ALPHA, CellComparison, Comparison
from serbench.report.text import _title, fmt_ns
from serbench.stats import Estimate

COLOURS = {"slower": "red", "faster": "green", "no verdict": "yellow", "added": "cyan"}


def _time(e: Estimate | None, unit: str) -> str:
    if e is None:
        return "-"
    pct = 100 * e.ci_half_width / e.headline_ns if e.headline_ns else 0
    return f"{fmt_ns(e.headline_ns, unit)} ±{pct:.0f}%"


def _ratio(x: CellComparison) -> str:
    if x.ratio is None:
        return "-"
    return f"{x.ratio:.3f} [{x.low:.3f}, {x.high:.3f}]"


def _verdict(x: CellComparison) -> str:
    if x.verdict in ("faster", "slower"):
        return f"{x.verdict} {abs(x.change or 0):.1f}%"
    return x.verdict + (f" ({x.why})" if x.why else "")


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


COLUMNS = ("cell", "op", "A", "B", "B/A [95% CI]", "p", "q", "verdict")


def _cells(x: CellComparison, unit: str) -> list[str]:
    a, b = _time(x.a, unit), _time(x.b, unit)
    return [x.cell, x.operation, a, b, _ratio(x), _p(x.p), _p(x.q), _verdict(x)]


def summary(c: Comparison) -> str:
    counts = ", ".join(f"{n} {v}" for v, n in c.counts().items())
    factors = c.block_inflation.values()
    widened = (
        f"x{min(factors):.2f}-x{max(factors):.2f} per runner and dataset"
        if factors
        else f"x{c.inflation:.2f}"
    )
    tails = (
        "tails normal"
        if c.tail_df == float("inf")
        else f"tails of a t with {c.tail_df:.0f} df (fitted to the cells)"
    )
    return (
        f"A = {c.a_label}, B = {c.b_label}: {len(c.cells)} cell operations: {counts}. "
        f"Intervals widened {widened} (runs' disagreement), run floor "
        f"±{100 * c.floor:.1f}%, {tails}; q: p adjusted for all tested cells (the gate's); "
        "method in docs/method.md"
    )


NARROW = 110  # below this terminal width the A and B columns are left out


def print_comparison(c: Comparison, console: Console) -> None:
    keep = [i for i, col in enumerate(COLUMNS) if console.width >= NARROW or col not in ("A", "B")]
    for dataset in c.datasets():
        table = Table(title=_title(dataset), title_justify="left", box=box.SIMPLE_HEAD)
        for i in keep:
            table.add_column(COLUMNS[i], overflow="fold", no_wrap=COLUMNS[i] != "verdict")
        for x in c.cells:
            if x.dataset == dataset:
                cells = _cells(x, c.unit)
                table.add_row(*(cells[i] for i in keep), style=COLOURS.get(x.verdict))
        console.print(table)
    console.print(summary(c))


def markdown(c: Comparison) -> str:
    lines = [f"# serbench compare: {c.a_label} -> {c.b_label}", "", summary(c), ""]
    for dataset in c.datasets():
        lines += [f"## {_title(dataset)}", "", "| " + " | ".join(COLUMNS) + " |"]
        lines.append("|" + "---|" * len(COLUMNS))
        for x in c.cells:
            if x.dataset == dataset:
                cells = [s.replace("|", "\\|") for s in _cells(x, c.unit)]
                lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def as_json(c: Comparison) -> str:
    def one(x: CellComparison) -> dict[str, Any]:
        return {
            "dataset": x.dataset,
            "cell": x.cell,
            "operation": x.operation,
            "a_ns": x.a.headline_ns if x.a else None,
            "b_ns": x.b.headline_ns if x.b else None,
            "ratio": x.ratio,
            "ratio_low": x.low,
            "ratio_high": x.high,
            "p": x.p,
            "q": x.q,
            "df": x.df if x.ratio is not None and x.df != float("inf") else None,
            "inflation": x.inflation if x.ratio is not None else None,
            "verdict": x.verdict,
            "why": x.why,
        }

    return json.dumps(
        {
            "a": c.a_label,
            "b": c.b_label,
            "inflation": c.inflation,
            "floor": c.floor,
            "tail_df": None if c.tail_df == float("inf") else c.tail_df,
            "counts": c.counts(),
            "cells": [one(x) for x in c.cells],
        },
        indent=2,
    )


def show(c: Comparison, fmt: str, console: Console) -> None:
    """`serbench compare --format`: table (terminal), md or json (to stdout)."""
    if fmt == "table":
        print_comparison(c, console)
    elif fmt in ("md", "json"):
        print((markdown if fmt == "md" else as_json)(c))
    else:
        raise ValueError(f"unknown format {fmt!r}; valid: table, md, json")


def gate(c: Comparison, above_pct: float, console: Console) -> bool:
    """The CI gate: True (and the cells listed) if any cell is a regression above PCT."""
    bad = c.regressions(above_pct)
    for x in bad:
        console.print(
            f"regression: {x.dataset} {x.cell} {x.operation}: {x.change:+.1f}% "
            f"[{100 * (x.low - 1):+.1f}%, {100 * (x.high - 1):+.1f}%], p={x.p:.3g}, q={x.q:.3g}"  # type: ignore[operator]
        )
    verdict = f"{len(bad)} cell operation(s)" if bad else "no cell operation"
    console.print(
        f"{verdict} significantly slower by more than {above_pct:g}% "
        f"(q <= {ALPHA:g} over all tested cells)"
    )
    return bool(bad)
