"""Bytes written by one language's library, read back by another's.

Every runner writes each dataset with each of its serializers (`prepare` with a
`dump_path`); every runner with the `decode_from` capability then decodes the files of
the *other* runners' serializers of the same format and layout, and checks the result
against the original data. A reader that cannot read a writer's bytes is NG with the
reason: the same format name does not make two libraries interoperable.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench import datasets, orchestrate, runners
from serbench.client import (
    CommandError,
    Dataset,
    Prepared,
    PrepareRequest,
    RunnerClient,
    prepare_request,
)
from serbench.runners import RunnerSpec
from serbench.session import RunnerSession, SessionFault
from serbench.timing import CROSSCHECK_TIMEOUT_S


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


def _prepare_all(spec: RunnerSpec, requests: list[PrepareRequest]) -> list[Prepared | str]:
    """`prepare` each request in one runner process (restarted after a fault): the replies,
    or the fault's (or error reply's) message where the runner failed on that request."""
    out: list[Prepared | str] = []
    session = None
    for request in requests:
        session = session or RunnerSession(spec, CROSSCHECK_TIMEOUT_S)
        runner = RunnerClient(session)
        try:
            out.append(runner.prepare(request))
            runner.release(request["cell"])
        except CommandError as error:
            out.append(f"{error.code}: {error}")
        except SessionFault as fault:
            out.append(f"{fault.code}: {fault}")
            session.close()
            session = None
    if session is not None:
        session.close()
    return out


def _prepare(
    lib: Library, dataset: Dataset, dump_path: str | None = None, decode_from: str | None = None
) -> PrepareRequest:
    cell = f"{lib.serializer}@{dataset['name']}"
    operations = ["decode" if decode_from else "encode"]
    return prepare_request(cell, lib.serializer, dataset, operations, dump_path, decode_from)


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
            if not isinstance(reply, str) and reply["status"] == "ok" and f.exists():
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
            check, error = reply["check"], reply["error"]
            detail = (check and check["detail"]) or (error["message"] if error else "")
            applicable = reply["status"] != "not_applicable"
            ok = bool(check and check["ok"])
            outcomes.append(Outcome(ds, writer, reader, ok, detail, applicable))
    return outcomes


def check(wanted: list[str], scale: str) -> tuple[list[Outcome], dict[str, str]]:
    """`serbench crosscheck`: every available runner's outcomes on the wanted datasets (all
    built-in ones when none are named), and why each other runner is unavailable."""
    wanted = list(wanted or datasets.DATASETS)
    orchestrate.check_datasets(wanted)
    specs = runners.discover()
    describes, unavailable = runners.describe_all(specs)
    with tempfile.TemporaryDirectory() as tmp:
        return run(specs, describes, wanted, scale, Path(tmp)), unavailable
