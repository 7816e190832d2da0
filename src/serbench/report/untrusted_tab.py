"""The HTML report's tab of outcomes on bytes a library did not write: the latest
`serbench conformance`, `serbench robustness` and `serbench crosscheck` JSON reports (they
are kept under the state directory, not in the run), drawn from the same table models as
the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from serbench.paths import state_dir
from serbench.report import interop, untrusted

FAILURES_SHOWN = 20  # per decoder; the JSON report has them all


def latest(folder: Path, prefix: str) -> tuple[Path, dict[str, Any]] | None:
    """The newest readable report `prefix-<UTC stamp>.json` in folder (names sort by time)."""
    for path in sorted(folder.glob(f"{prefix}-*.json"), reverse=True):
        try:
            return path, json.loads(path.read_text())
        except (OSError, ValueError):
            continue  # a report being written, or damaged: the one before it
    return None


def _table(title: str, model: tuple[list[str], list[list[str]]]) -> dict[str, Any]:
    columns, rows = model
    return {"title": title, "columns": columns, "rows": rows}


def _failures(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        for f in row["failures"][:FAILURES_SHOWN]:
            name = f"{row['runner']}/{row['serializer']} {row.get('dataset') or ''}".strip()
            out.append({"text": f"{name}: {f['class']}: {f['case']}: {f['detail'][:160]}"})
            out.append({"text": f"replay: {f['replay']}", "dim": True})
    return out


def _untrusted(path: Path, doc: dict[str, Any]) -> dict[str, Any]:
    rows = doc["results"]
    if doc["command"] == "conformance":
        title = "Conformance: every decoder against its format's public suites"
        table = untrusted.conformance_table(rows)
        lines = []
    else:
        title = "Robustness: seeded corruptions of each decoder's own encoding"
        table = untrusted.robustness_table(rows)
        lines = [{"text": t, "flag": f} for t, f in untrusted.evidence_lines(rows)]
    lines += [{"text": n, "dim": True} for n in untrusted.notes(rows)]
    tables = [_table("", table)]
    if any(r.get("interop") for r in rows):
        tables.append(_table(untrusted.INTEROP_TITLE, untrusted.interop_table(rows)))
    return {
        "title": title,
        "source": f"session {doc['session']} ({path})",
        "tables": tables,
        "lines": lines,
        "failures": _failures(rows),  # folded: with a replay command each
    }


def _crosscheck(path: Path, doc: dict[str, Any]) -> dict[str, Any]:
    tables = [_table("pairs by wire convention", interop.groups_table(doc))]
    real = interop.real_table(doc)
    if real[1]:
        tables.append(_table("real incompatibilities (NG inside one convention)", real))
    lines = [{"text": interop.summary_line(doc)}]
    lines += [{"text": t, "dim": True} for t in interop.across_lines(doc)]
    return {
        "title": "Cross-language read-back, grouped by wire convention",
        "source": str(path),
        "tables": tables,
        "lines": lines,
    }


def payload(root: Path | None = None) -> dict[str, Any]:
    """The tab's sections, newest report of each command; none when no report exists."""
    root = root or state_dir()
    found = [
        (latest(root / "untrusted", "conformance"), _untrusted),
        (latest(root / "untrusted", "robustness"), _untrusted),
        (latest(root / "crosscheck", "crosscheck"), _crosscheck),
    ]
    sections = []
    for report, section in found:
        if report is None:
            continue
        try:
            sections.append(section(*report))
        except (KeyError, TypeError, AttributeError) as exc:  # another version's report
            line = {"text": f"{report[0]}: not a report this version reads ({exc!r})"}
            sections.append({"title": str(report[0].name), "tables": [], "lines": [line]})
    return {"title": "untrusted input & interop", "sections": sections}
