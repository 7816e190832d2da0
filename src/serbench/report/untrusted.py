"""Conformance and robustness results: the terminal tables and the JSON report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from serbench.untrusted.classify import CONFORMANCE, ROBUSTNESS

SHOWN_FAILURES = 5  # per decoder in the terminal; the JSON report has them all


def _rate(row: dict[str, Any]) -> str:
    rate = row.get("inputs_per_second")
    return f"{rate:,.0f}" if rate else "-"


def print_conformance(rows: list[dict[str, Any]], console: Console) -> None:
    table = Table(title="conformance: every decoder against its format's public suites")
    for col in ("decoder", "format", "cases", "pass rate", *CONFORMANCE, "i_ acc/rej", "inputs/s"):
        table.add_column(col.replace("_", " "), justify="left" if col in ("decoder",) else "right")
    for row in rows:
        name = f"{row['runner']}/{row['serializer']}"
        if row["skipped"]:
            continue
        counts, total = row["counts"], row["inputs"]
        rate = f"{100 * counts.get('passed', 0) / total:.1f}%" if total else "-"
        either = (
            f"{counts.get('implementation_defined_accepted', 0)}/"
            f"{counts.get('implementation_defined_rejected', 0)}"
        )
        cells = [str(counts.get(c, 0) or "") for c in CONFORMANCE]
        table.add_row(name, row["format"], str(total), rate, *cells, either, _rate(row))
    console.print(table)
    _print_skipped(rows, console)
    _print_failures(rows, console)


def print_robustness(rows: list[dict[str, Any]], console: Console) -> None:
    table = Table(title="robustness: seeded corruptions of each decoder's own encoding")
    for col in ("decoder", "dataset", "inputs", *ROBUSTNESS, "inputs/s", "respawns"):
        table.add_column(col.replace("_", " "), justify="left" if col == "decoder" else "right")
    for row in rows:
        name = f"{row['runner']}/{row['serializer']}"
        if row["skipped"]:
            continue
        counts = row["counts"]
        cells = [str(counts.get(c, 0) or "") for c in ROBUSTNESS]
        table.add_row(
            name,
            row["dataset"] or "your inputs",
            str(row["inputs"]),
            *cells,
            _rate(row),
            str(row["respawns"]),
        )
    console.print(table)
    limits = sorted({f"{r['runner']}: {r['limits']}" for r in rows if r.get("limits")})
    if limits:
        console.print("limits per runner process: " + "; ".join(limits), style="dim")
    _print_skipped(rows, console)
    _print_failures(rows, console)


def _print_skipped(rows: list[dict[str, Any]], console: Console) -> None:
    """Decoders not run, once each, with why (a runner without the capability, a row
    without the command, a dataset it cannot carry)."""
    seen: dict[str, str] = {}
    for row in rows:
        if row["skipped"]:
            seen.setdefault(f"{row['runner']}/{row['serializer']}", row["skipped"])
    for name, why in seen.items():
        console.print(f"not run: {name}: {why[:160]}", markup=False, style="dim")


def _print_failures(rows: list[dict[str, Any]], console: Console) -> None:
    for row in rows:
        failures = row["failures"]
        if not failures:
            continue
        console.print(
            f"[bold]{row['runner']}/{row['serializer']}[/bold] {row.get('dataset') or ''}"
        )
        for f in failures[:SHOWN_FAILURES]:
            console.print(f"  {f['class']}: {f['case']}: {f['detail'][:120]}", markup=False)
            console.print(f"    replay: {f['replay']}", markup=False, style="dim")
        if len(failures) > SHOWN_FAILURES:
            console.print(f"  ... {len(failures) - SHOWN_FAILURES} more in the JSON report")


def write_json(path: Path, command: str, session: str, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"command": command, "session": session, "results": rows}
    path.write_text(json.dumps(doc, indent=1))
