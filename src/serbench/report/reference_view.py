"""`serbench reference`: a seed's published table, this machine's rows with the same names,
and each of the seed's claims with its verdict."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from serbench import reference
from serbench.report.model import RunReport
from serbench.report.text import fmt_kib


def print_reference(key: str, rep: RunReport, console: Console) -> None:
    pub = reference.SCENARIOS[key]
    run_id = rep.run["id"]
    scale = rep.run["config"].get("scale", "full")
    table = Table(*pub.columns, title=f"{key} published: {pub.title}", title_justify="left")
    for row in pub.rows:
        table.add_row(*row)
    console.print(table)
    mtable = Table(
        "dataset",
        "stands in for",
        "serializer",
        "library",
        "encode",
        "decode",
        "enc (seed)",
        "dec (seed)",
        "bytes",
        "footprint",
        "check",
        title=f"{key} measured here (run {run_id}, {scale}; {pub.method})",
        title_justify="left",
    )
    for ds, label, row in reference.measured_rows(key, rep):
        units = reference.measured_units(ds, scale)
        cells = reference.scaled(key, ds, row, units)
        mtable.add_row(
            ds,
            label,
            row.name,
            f"{row.library} {row.version}",
            cells["encode"],
            cells["decode"],
            cells["encode_seed"],
            cells["decode_seed"],
            cells["bytes"],
            fmt_kib(row.footprint_bytes),
            "OK" if row.status == "ok" else f"[red]{row.status}: {row.detail[:80]}[/red]",
        )
    console.print(mtable)
    for label, why in reference.SEED_ONLY_ROWS.items() if key == "S5" else ():
        console.print(f"[dim]{label}: not measured here: {why}[/dim]")
    ctable = Table(
        "claim",
        "runner",
        "measured [95% CI]",
        "published",
        "holds at",
        "verdict",
        "ratio of",
        title=f"{key} claims (ratios within this run)",
        title_justify="left",
    )
    for v in reference.check_claims(key, rep):
        colour = {"holds": "green", "direction only": "yellow", "undecided": "blue"}.get(
            v.verdict, "red"
        )
        measured = "-"
        if v.measured is not None:
            measured = f"{v.measured:.2f}x [{v.low:.2f}, {v.high:.2f}]"
        ctable.add_row(
            v.claim,
            v.runner,
            measured,
            f"{v.published:.2f}x",
            f"{v.needs:.2f}x",
            f"[{colour}]{v.verdict}[/{colour}]" + (f"\n[dim]{v.why}[/dim]" if v.why else ""),
            v.evidence,
        )
    console.print(ctable)
