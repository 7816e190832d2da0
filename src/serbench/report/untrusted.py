"""Conformance and robustness results: the tables (one model each, drawn by the terminal
and by the HTML report's tab), the evidence behind each decoder's safety labels, and the
JSON report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from serbench.untrusted.classify import CONFORMANCE, ROBUSTNESS

SHOWN_FAILURES = 5  # per decoder in the terminal; the JSON report has them all
UNSAFE = "unsafe-untrusted-input"
# what counts against a decoder's safety: the process died, hung or blew its memory limit
HARMFUL = ("crash", "hang", "excessive_allocation")
SAFETY = (UNSAFE, "validated", "unvalidated")
WORDS = {
    "crash": ("crash", "crashes"),
    "hang": ("hang", "hangs"),
    "excessive_allocation": ("excessive allocation", "excessive allocations"),
}
Cells = list[list[str]]


def _plural(n: int, cls: str) -> str:
    return f"{n:,} {WORDS[cls][n != 1]}"


def _name(row: dict[str, Any]) -> str:
    return f"{row['runner']}/{row['serializer']}"


def evidence(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per decoder (over its datasets): its safety labels and what the corruptions did.

    `flag` is set when a decoder labelled neither unsafe-untrusted-input nor unvalidated
    (access that trusts its input, by its own label) crashed, hung or allocated past its
    limit; `text` reads like "python/pickle: 21 crashes, 1 excessive allocation in 200"."""
    per: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["skipped"]:
            continue
        e = per.setdefault(
            _name(row), {"decoder": _name(row), "labels": row.get("labels") or [], "inputs": 0}
        )
        e["inputs"] += row["inputs"]
        for cls in HARMFUL:
            e[cls] = e.get(cls, 0) + row["counts"].get(cls, 0)
    out = []
    for e in per.values():
        harms = [_plural(e[c], c) for c in HARMFUL if e[c]]
        said = ", ".join(harms) if harms else "no crash, hang or excessive allocation"
        e["safety_labels"] = [lab for lab in SAFETY if lab in e["labels"]]
        e["text"] = f"{e['decoder']}: {said} in {e['inputs']:,}"
        warned = UNSAFE in e["labels"] or "unvalidated" in e["labels"]
        e["flag"] = None if warned or not harms else f"labelled safe, but {said}"
        out.append(e)
    return out


def evidence_lines(rows: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """(line, flagged): the safety labels beside what the corruptions did."""
    out = []
    for e in evidence(rows):
        labels = f" [{', '.join(e['safety_labels'])}]" if e["safety_labels"] else ""
        if e["flag"]:
            out.append((f"FLAG {e['decoder']}{labels}: {e['flag']}", True))
        elif e["safety_labels"]:
            out.append((f"evidence{labels}: {e['text']}", False))
    return out


def _rate(row: dict[str, Any]) -> str:
    rate = row.get("inputs_per_second")
    return f"{rate:,.0f}" if rate else "-"


def conformance_table(rows: list[dict[str, Any]]) -> tuple[list[str], Cells]:
    columns = ["decoder", "format", "cases", "pass rate", *CONFORMANCE, "i_ acc/rej", "inputs/s"]
    cells = []
    for row in rows:
        if row["skipped"]:
            continue
        counts, total = row["counts"], row["inputs"]
        rate = f"{100 * counts.get('passed', 0) / total:.1f}%" if total else "-"
        either = (
            f"{counts.get('implementation_defined_accepted', 0)}/"
            f"{counts.get('implementation_defined_rejected', 0)}"
        )
        counted = [str(counts.get(c, 0) or "") for c in CONFORMANCE]
        cells.append([_name(row), row["format"], str(total), rate, *counted, either, _rate(row)])
    return [c.replace("_", " ") for c in columns], cells


INTEROP_TITLE = (
    "Avro interop: each row's container files of interop.avsc (codecs null and deflate),"
    " read by every Avro row"
)
INTEROP_MARK = {"passed": "ok", "wrong_value": "WRONG", "should_have_accepted": "REJECTED"}


def interop_table(rows: list[dict[str, Any]]) -> tuple[list[str], Cells]:
    """Avro's interop test: a reader per row, a writer per column; a cell is `ok` when the
    reader read that writer's files (every codec) as the datum, else each codec's class."""
    readers = [r for r in rows if r.get("interop")]
    files = sorted({f for r in readers for f in r["interop"]})
    writers = sorted({f.rsplit(" ", 1)[0] for f in files})

    def cell(got: dict[str, str], writer: str) -> str:
        mine = {f.rsplit(" ", 1)[1]: c for f, c in got.items() if f.rsplit(" ", 1)[0] == writer}
        if mine and all(c == "passed" for c in mine.values()):
            return "ok"
        return ", ".join(f"{k}: {INTEROP_MARK.get(c, c)}" for k, c in sorted(mine.items())) or "-"

    cells = [[_name(r), *(cell(r["interop"], w) for w in writers)] for r in readers]
    return ["reader, files written by ->", *writers], cells


def robustness_table(rows: list[dict[str, Any]]) -> tuple[list[str], Cells]:
    columns = ["decoder", "safety labels", "dataset", "inputs", *ROBUSTNESS, "inputs/s"]
    cells = []
    for row in rows:
        if row["skipped"]:
            continue
        safety = ", ".join(lab for lab in SAFETY if lab in (row.get("labels") or []))
        counted = [str(row["counts"].get(c, 0) or "") for c in ROBUSTNESS]
        cells.append(
            [
                _name(row),
                safety,
                row["dataset"] or "your inputs",
                str(row["inputs"]),
                *counted,
                _rate(row),
            ]
        )
    return [c.replace("_", " ") for c in columns], cells


def notes(rows: list[dict[str, Any]]) -> list[str]:
    """What the table does not say: limits, a resumed session, decoders not run."""
    out = []
    limits = sorted({f"{r['runner']}: {r['limits']}" for r in rows if r.get("limits")})
    if limits:
        out.append("limits per runner process: " + "; ".join(limits))
    respawns = sum(r.get("respawns", 0) for r in rows)
    if respawns:
        out.append(f"{respawns:,} runner processes respawned after a crash or hang")
    resumed = sum(r.get("resumed", 0) for r in rows)
    if resumed:
        out.append(f"{resumed:,} outcomes from the resumed session, not fed again")
    skipped: dict[str, str] = {}
    for row in rows:
        if row["skipped"]:
            skipped.setdefault(_name(row), row["skipped"])
    out += [f"not run: {name}: {why[:160]}" for name, why in skipped.items()]
    return out


def _print_table(title: str, model: tuple[list[str], Cells], console: Console) -> None:
    columns, cells = model
    table = Table(title=title)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in cells:
        table.add_row(*row)
    console.print(table)


def print_conformance(rows: list[dict[str, Any]], console: Console) -> None:
    title = "conformance: every decoder against its format's public suites"
    _print_table(title, conformance_table(rows), console)
    if any(r.get("interop") for r in rows):
        _print_table(INTEROP_TITLE, interop_table(rows), console)
    for line in notes(rows):
        console.print(line, markup=False, style="dim")
    _print_failures(rows, console)


def print_robustness(rows: list[dict[str, Any]], console: Console) -> None:
    title = "robustness: seeded corruptions of each decoder's own encoding"
    _print_table(title, robustness_table(rows), console)
    for line in notes(rows):
        console.print(line, markup=False, style="dim")
    for line, flagged in evidence_lines(rows):
        console.print(line, markup=False, style="red" if flagged else None)
    _print_failures(rows, console)


def _print_failures(rows: list[dict[str, Any]], console: Console) -> None:
    for row in rows:
        failures = row["failures"]
        if not failures:
            continue
        console.print(f"[bold]{_name(row)}[/bold] {row.get('dataset') or ''}")
        for f in failures[:SHOWN_FAILURES]:
            console.print(f"  {f['class']}: {f['case']}: {f['detail'][:120]}", markup=False)
            console.print(f"    replay: {f['replay']}", markup=False, style="dim")
        if len(failures) > SHOWN_FAILURES:
            console.print(f"  ... {len(failures) - SHOWN_FAILURES} more in the JSON report")


def write_json(path: Path, command: str, session: str, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc: dict[str, Any] = {"command": command, "session": session, "results": rows}
    if command == "robustness":
        doc["evidence"] = evidence(rows)
    path.write_text(json.dumps(doc, indent=1))
