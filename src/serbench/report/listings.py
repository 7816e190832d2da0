"""Terminal renderings of what is not one run's report: datasets, runners, builds, runs,
user-dataset registrations and socket transfers (cross-language read-backs: interop.py)."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table

from serbench import datasets, transport, userdata
from serbench.report.text import fmt_ns


def print_datasets(scale: str, write: bool, console: Console) -> None:
    """Built-in datasets at ``scale`` and the registered user ones (marked `user`)."""
    table = Table(
        "dataset",
        "scenario",
        "framing",
        "messages",
        "records",
        "distinct",
        "canonical bytes",
        "sha256",
        *(["file"] if write else []),
        title=f"datasets ({scale})",
    )
    for spec in datasets.DATASETS.values():
        ds = spec.build(scale)  # type: ignore[arg-type]
        blob = ds.canonical_bytes()
        table.add_row(
            spec.name,
            spec.scenario,
            spec.framing,
            f"{ds.count:,}",
            f"{ds.records:,}",
            str(len(ds.items)),
            f"{len(blob):,}",
            ds.sha256()[:16],
            *([str(ds.path())] if write else []),
        )
    for name in userdata.names():  # one size at every scale
        entry = userdata.get(name)
        meta = entry.meta
        table.add_row(
            f"{name} [magenta]user[/magenta]",
            "user",
            meta["framing"],
            f"{meta['count']:,}",
            "",
            "",
            f"{meta['bytes']:,}",
            meta["sha256"][:16],
            *([str(entry.descriptor()["data"])] if write else []),
        )
    console.print(table)


def print_registration(entry: userdata.Entry, console: Console) -> None:
    meta = entry.meta
    console.print(
        f"[green]registered[/green] user dataset [bold]{entry.name}[/bold]: "
        f"{meta['framing']}, {meta['count']:,} message(s), {meta['bytes']:,} canonical bytes, "
        f"sha256 {meta['sha256'][:16]} ({meta['seconds']:.1f} s)"
    )
    console.print(f"  types: {entry.folder / meta['types']}")
    for kind, s in meta["schemas"].items():
        shown = entry.folder / s["path"] if "path" in s else f"unavailable: {s['unavailable']}"
        console.print(f"  {kind}: {shown}")
    for note in meta.get("notes", []):
        console.print(f"  note: {note}")


def print_runner(
    name: str, language: str, d: dict[str, Any], verbose: bool, console: Console
) -> None:
    rt = d.get("runtime", {})
    console.print(
        f"[bold]{name}[/bold] ({language}) {rt.get('name', '')} "
        f"{rt.get('version', '')}: {len(d['serializers'])} serializers"
    )
    if not verbose:
        return
    table = Table("serializer", "format", "library", "version", "labels", "n/a datasets")
    for s in d["serializers"]:
        na = [k for k, v in s.get("datasets", {}).items() if not v.get("applicable")]
        table.add_row(
            s["name"],
            s.get("format", ""),
            s.get("library", ""),
            s.get("version", ""),
            " ".join(s.get("labels", [])),
            " ".join(na),
        )
    console.print(table)


def print_build(built: Any, console: Console, dataset: str | None = None) -> None:
    """A builds.Built; ``dataset``: the user dataset whose registration asked for it."""
    took = f"{built.seconds:.1f} s"
    if built.error is None:
        why = f" (typed model for user dataset {dataset})" if dataset else ""
        console.print(f"[green]built[/green] {built.runner} in {took}{why}")
    elif dataset is None:
        console.print(f"[red]build failed[/red] {built.runner} after {took}: {built.error}")
    else:
        console.print(
            f"[red]typed-model build failed[/red] runner {built.runner}, user dataset {dataset}, "
            f"after {took}: {built.error}\n  {dataset} stays registered and every other runner "
            f"takes it; {built.runner}'s typed rows answer not applicable until "
            f"`serbench build -r {built.runner}` succeeds"
        )


def print_runs(rows: list[Any], console: Console) -> None:
    table = Table("id", "started", "finished", "status", "scale", "commit")
    for r in rows:
        cfg, env = json.loads(r["config"]), json.loads(r["environment"])
        table.add_row(
            str(r["id"]),
            r["started_at"],
            r["finished_at"] or "",
            r["status"],
            cfg.get("scale", ""),
            (env.get("git_commit") or "")[:10],
        )
    console.print(table)


def transfer_table(title: str) -> Table:
    columns = ("sender", "receiver", "bytes", "encode", "send", "receive", "decode", "total")
    return Table(*columns, "check", title=f"{title}: mean (min)", title_justify="left")


def add_transfer(table: Table, sender: object, receiver: object, result: dict[str, Any]) -> None:
    s = transport.summary(result)
    ok = result["receive"]["check"]["ok"]

    def t(phase: str) -> str:
        return f"{fmt_ns(s[phase + '_mean'])} ({fmt_ns(s[phase + '_min'])})"

    table.add_row(
        str(sender),
        str(receiver),
        f"{result['send']['bytes']:,}",
        t("encode"),
        t("send"),
        t("receive"),
        t("decode"),
        t("total"),
        "OK" if ok else f"NG: {result['receive']['check']['detail']}",
    )


def add_failed_transfer(table: Table, sender: object, receiver: object, exc: Exception) -> None:
    """A side that cannot carry the dataset is n/a (dim), any other failure NG (red)."""
    na = isinstance(exc, transport.NotApplicable)
    table.add_row(
        str(sender),
        str(receiver),
        *["-"] * 6,
        f"{'n/a' if na else 'NG'}: {exc}",
        style="dim" if na else "red",
    )


def print_transfers(transfers: list[Any], title: str, console: Console) -> None:
    """transport.Transfer results, measured or failed, in one table."""
    table = transfer_table(title)
    for t in transfers:
        if t.error is None:
            add_transfer(table, t.sender, t.receiver, t.result)
        else:
            add_failed_transfer(table, t.sender, t.receiver, t.error)
    console.print(table)


def print_stored_transfers(rows: list[Any], console: Console) -> None:
    if not rows:
        console.print("no socket transfers stored yet: `serbench transport` measures them")
        return
    table = transfer_table("S3 over a real loopback socket (latest `serbench transport`)")
    for r in rows:
        if r["status"] == "ok":
            add_transfer(table, r["sender"], r["receiver"], json.loads(r["result"]))
        else:
            table.add_row(r["sender"], r["receiver"], *["-"] * 6, r["error"] or "error")
    console.print(table)
