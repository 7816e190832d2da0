"""Bytes written by one language's library, read back by another's.

Every runner writes each dataset with each of its serializers (`prepare` with a
`dump_path`); every runner with the `decode_from` capability then decodes the files of
the *other* runners' serializers of the same format and layout, and checks the result
against the original data. A reader that cannot read a writer's bytes is NG with the
reason: the same format name does not make two libraries interoperable.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench import orchestrate
from serbench.runners import RunnerSpec
from serbench.session import RunnerSession, SessionFault

PREPARE_TIMEOUT = 300.0


@dataclass(frozen=True)
class Library:
    runner: str
    serializer: str
    format: str
    positional: bool

    @property
    def name(self) -> str:
        return f"{self.runner}/{self.serializer}"

    def reads(self, other: Library) -> bool:
        """Same format and layout, another runner."""
        return (
            self.runner != other.runner
            and self.format == other.format
            and self.positional == other.positional
        )


@dataclass
class Outcome:
    dataset: str
    writer: str
    reader: str
    ok: bool
    detail: str
    applicable: bool = True  # False: the reader cannot carry this dataset (not a failed read)

    @property
    def check(self) -> str:
        return "OK" if self.ok else ("NG" if self.applicable else "n/a")


def libraries(describes: dict[str, dict[str, Any]], dataset: str) -> list[Library]:
    out = []
    for runner, d in describes.items():
        for s in d["serializers"]:
            applicable = orchestrate.applicability(d, s, dataset).get("applicable")
            if "baseline" in s["labels"] or not applicable:
                continue
            # Only a schemaless format offers both layouts; a schema format's layout is
            # its schema's, whether or not a runner labels it positional (Avro).
            labels = s["labels"]
            positional = "positional" in labels and "schema-required" not in labels
            out.append(Library(runner, s["name"], s["format"], positional))
    return out


def _prepare_all(spec: RunnerSpec, commands: list[dict[str, Any]]) -> list[dict[str, Any] | str]:
    """`prepare` each command in one runner process (restarted after a fault): the replies,
    or the fault's message where the runner died on that command."""
    out: list[dict[str, Any] | str] = []
    session = None
    for command in commands:
        session = session or RunnerSession(spec, PREPARE_TIMEOUT)
        try:
            out.append(session.call(command))
            session.call({"cmd": "release", "cell": command["cell"]})
        except SessionFault as fault:
            out.append(f"{fault.code}: {fault}")
            session = None
    if session is not None:
        session.close()
    return out


def _prepare(lib: Library, dataset: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "cmd": "prepare",
        "cell": f"{lib.serializer}@{dataset['name']}",
        "serializer": lib.serializer,
        "dataset": dataset,
        "operations": ["decode" if extra.get("decode_from") else "encode"],
        "dump_path": None,
        "decode_from": None,
        **extra,
    }


def run(
    specs: dict[str, RunnerSpec],
    describes: dict[str, dict[str, Any]],
    wanted: list[str],
    scale: str,
    workdir: Path,
) -> list[Outcome]:
    readers = {r for r, d in describes.items() if "decode_from" in d.get("capabilities", [])}
    wire = {ds: orchestrate.on_the_wire(orchestrate.descriptor(ds, scale)) for ds in wanted}
    libs = {ds: libraries(describes, ds) for ds in wanted}
    written: dict[tuple[str, str], Path] = {}
    for runner in describes:
        jobs = [
            (lib, ds, workdir / f"{lib.name.replace('/', '.')}.{ds}.bin")
            for ds in wanted
            for lib in libs[ds]
            if lib.runner == runner and any(r.reads(lib) for r in libs[ds] if r.runner in readers)
        ]
        commands = [_prepare(lib, wire[ds], dump_path=str(f)) for lib, ds, f in jobs]
        for (lib, ds, f), reply in zip(jobs, _prepare_all(specs[runner], commands), strict=True):
            if isinstance(reply, dict) and reply.get("status") == "ok" and f.exists():
                written[(lib.name, ds)] = f
    outcomes = []
    for runner in sorted(readers):
        commands, pairs = [], []
        for ds in wanted:
            for reader in (lib for lib in libs[ds] if lib.runner == runner):
                for writer in libs[ds]:
                    f = written.get((writer.name, ds))
                    if f is not None and reader.reads(writer):
                        commands.append(_prepare(reader, wire[ds], decode_from=str(f)))
                        pairs.append((ds, writer.name, reader.name))
        for (ds, writer, reader), reply in zip(
            pairs, _prepare_all(specs[runner], commands), strict=True
        ):
            if isinstance(reply, str):
                outcomes.append(Outcome(ds, writer, reader, False, reply))
                continue
            check = reply.get("check") or {}
            detail = check.get("detail") or (reply.get("error") or {}).get("message", "")
            applicable = reply.get("status") != "not_applicable"
            outcomes.append(Outcome(ds, writer, reader, bool(check.get("ok")), detail, applicable))
    return outcomes
