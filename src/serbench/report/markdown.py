"""Rendering as Markdown (report.md)."""

from __future__ import annotations

from serbench.report.model import (
    Podium,
    Row,
    RunReport,
    overhead,
    size_podium,
    time_podium,
)
from serbench.report.text import (
    SUMMARY_NOTE,
    _cells,
    _columns,
    _title,
    agreement_facts,
    fmt_est,
    fmt_ns,
    podium_parts,
)


def markdown(report: RunReport) -> str:
    run, env = report.run, report.run["environment"]
    lines = [
        f"# serbench run {run['id']}",
        "",
        f"- started {run['started_at']}, status {run['status']}, scale "
        f"{run['config'].get('scale')}, operations {', '.join(report.operations)}",
        f"- machine: {env.get('cpu_model')} ({env.get('cpu_count')} CPUs), kernel "
        f"{env.get('kernel')}, governor {env.get('governor') or 'n/a'}",
        f"- serbench {env.get('serbench')} at {(env.get('git_commit') or 'unknown')[:12]}"
        f"{' (dirty)' if env.get('git_dirty') else ''}",
        "- times: per operation on the whole dataset, fast-edge median ±95% CI half-width (min);"
        " method in docs/method.md",
        "- stability: share of slices outside the fast mode / spread of the per-process"
        " headlines; noop rows are the harness overhead",
        *(f"- {label}: {value}" for label, value in agreement_facts(report)),
        *(["- runtimes, as each runner described itself:"] if report.runtimes else []),
        *(f"  - {runner}: {text}" for runner, text in report.runtimes.items()),
        "",
    ]
    lines += summary_markdown(report)
    cols = _columns(report)
    for dataset, rows in report.tables.items():
        lines += [
            f"## {_title(dataset)}",
            "",
            "| " + " | ".join(cols) + " |",
            "|" + "---|" * len(cols),
        ]
        for row in rows:
            cells = [c.replace("|", "\\|") for c in _cells(row, report)]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines += overhead_markdown(report)
    return "\n".join(lines)


def overhead_markdown(report: RunReport) -> list[str]:
    rows = overhead(report)
    if not rows:
        return []
    lines = [
        "## Harness overhead (the noop serializer through the same loop)",
        "",
        "| runner | dataset | encode | decode | per message (encode / decode) |",
        "|---|---|---|---|---|",
    ]
    for runner, dataset, enc, dec, msgs in rows:
        u = report.unit
        per = " / ".join(fmt_ns(e.per_message_ns, u) if e else "-" for e in (enc, dec))
        lines.append(
            f"| {runner} | {dataset} | {fmt_est(enc, unit=u)} | {fmt_est(dec, unit=u)} | "
            f"{per if msgs > 1 else '-'} |"
        )
    return [*lines, ""]


def _code(name: str) -> str:
    """A name as a code span, whatever backticks it holds."""
    fence = "``" if "`" in name else "`"
    pad = " " if name.startswith("`") or name.endswith("`") else ""
    return f"{fence}{pad}{name}{pad}{fence}"


def _podium(podium: Podium, unit: str | None) -> str:
    return "".join(
        _code(text) if role in ("first", "name") else text
        for text, role in podium_parts(podium, unit)
    )


def _summary_lines(rows: list[Row], unit: str) -> list[str]:
    lines = [f"  - {op}: {_podium(time_podium(rows, op), unit)}" for op in ("encode", "decode")]
    access = time_podium(rows, "decode", access=True)
    if access.places:
        lines.append(f"  - access: {_podium(access, unit)}")
    lines.append(f"  - bytes: {_podium(size_podium(rows), None)}")
    return lines


def summary_markdown(report: RunReport) -> list[str]:
    """Per dataset the fastest three per operation (access rows apart) and the smallest."""
    if not report.tables:
        return []
    lines = ["## Summary: the fastest and the smallest", ""]
    for dataset, rows in report.tables.items():
        lines.append(f"- {_title(dataset)}")
        lines += _summary_lines(rows, report.unit)
    return [*lines, "", SUMMARY_NOTE[0].upper() + SUMMARY_NOTE[1:] + ".", ""]
