"""`serbench crosscheck`'s report: pairs grouped by dataset, format and the wire
conventions their libraries declare; every real incompatibility with its first
difference; the pairs across conventions counted per group with one example. One model
per table, drawn by the terminal and by the HTML report's tab."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

DETAIL_WIDTH = 110
Cells = list[list[str]]
CHECKS = ("OK", "across", "NG", "n/a")


def _first_line(text: str) -> str:
    return text.splitlines()[0][:DETAIL_WIDTH] if text else ""


def groups_table(doc: dict[str, Any]) -> tuple[list[str], Cells]:
    """`doc` as serbench.crosscheck.write_json writes it."""
    columns = ["dataset", "format", "conventions", "pairs", "intact", "across", "NG", "n/a"]
    cells = []
    for g in doc["summary"]["groups"]:
        total = sum(g[c] for c in CHECKS)
        cells.append(
            [g["dataset"], g["format"], g["conventions"], str(total)]
            + [str(g[c] or "") for c in CHECKS]
        )
    return columns, cells


def real_table(doc: dict[str, Any]) -> tuple[list[str], Cells]:
    columns = ["dataset", "written by", "read by", "conventions", "first difference"]
    cells = [
        [p["dataset"], p["writer"], p["reader"], p["conventions"], _first_line(p["detail"])]
        for p in doc["pairs"]
        if p["check"] == "NG"
    ]
    return columns, cells


def across_lines(doc: dict[str, Any]) -> list[str]:
    """One line per convention difference: how many pairs, and one reader's words."""
    seen: dict[str, list[dict[str, Any]]] = {}
    for p in doc["pairs"]:
        if p["check"] == "across":
            seen.setdefault(p["conventions"], []).append(p)
    return [
        f"across conventions ({conventions}): {len(group)} pairs, e.g. "
        f"{group[0]['writer']} -> {group[0]['reader']}: {_first_line(group[0]['detail'])}"
        for conventions, group in sorted(seen.items())
    ]


def summary_line(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    counts = s["counts"]
    return (
        f"{s['pairs']} pairs: {counts['OK']} read back intact ({s['intact_across']} of them "
        f"across conventions), {counts['across']} across conventions (not read back: the two "
        f"libraries write different wire conventions), {counts['NG']} real incompatibilities "
        f"inside one convention, {counts['n/a']} not applicable (the reader cannot carry the "
        "dataset)"
    )


def print_crosscheck(doc: dict[str, Any], console: Console) -> None:
    columns, cells = groups_table(doc)
    groups = Table(*columns, title="cross-language read-back, by wire convention")
    for row in cells:
        style = "red" if row[6] else ("dim" if " vs " in row[2] else None)
        groups.add_row(*row, style=style)
    console.print(groups)
    columns, cells = real_table(doc)
    if cells:
        real = Table(*columns, title="real incompatibilities (NG inside one convention)")
        for row in cells:
            real.add_row(*row)
        console.print(real, style="red")
    for line in across_lines(doc):
        console.print(line, markup=False, style="dim")
    console.print(summary_line(doc))
