"""Rendering as Markdown (report.md)."""

from __future__ import annotations

from serbench.report.model import RunReport, overhead
from serbench.report.text import _cells, _columns, _title, fmt_est, fmt_ns


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
        "- times: per operation on the whole dataset, fast-mode median ±95% CI half-width (min);"
        " method in docs/method.md",
        "- stability: share of slices outside the fast mode / spread of the per-process"
        " headlines; noop rows are the harness overhead",
        "",
    ]
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
