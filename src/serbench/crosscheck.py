"""Bytes written by one language's library, read back by another's.

Every runner writes each dataset with each of its serializers (`prepare` with a
`dump_path`); every runner with the `decode_from` capability then decodes the files of
the *other* runners' serializers of the same format, and checks the result against the
original data. Each library declares its wire conventions with labels (map or positional
records, enums by name or ordinal, a runtime's own member names, ...): a pair that fails
across two conventions is reported as such, and only a failure inside one convention is
a real incompatibility (NG), with the first differing path or the reader's error.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
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
from serbench.paths import state_dir
from serbench.runners import RunnerSpec
from serbench.session import RunnerSession, SessionFault
from serbench.timing import CROSSCHECK_TIMEOUT_S

# Conventions a library declares with labels of the vocabulary (docs/runner-protocol.md
# section 5). On an axis, two libraries are compared only when both declare a value: a
# schema format's layout is its schema's, whether or not a runner labels it positional.
AXES: dict[str, tuple[str, ...]] = {
    "layout": ("positional", "map-layout"),
    "enums": ("enum-as-name", "enum-as-ordinal"),
    "timestamps": ("timestamp-as-number", "timestamp-as-text", "timestamp-native"),
}
# A wire form of the library's own making: no library of another runner shares it. The
# value is what a library without the label writes instead.
OWN = {"handwritten": "another layout", "runtime-names": "the dataset's names"}
# A wire form marked by the label alone; a library without it writes the common one.
MARKS = {"root-list-document": "a root list as an items field"}
# The same, for stream datasets only (docs/runner-protocol.md section 6).
STREAM_MARKS = {"stream-concatenated": "length-prefixed frames"}
CHECKS = ("OK", "NG", "across", "n/a")


@dataclass(frozen=True)
class Library:
    runner: str
    serializer: str
    format: str
    labels: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.runner}/{self.serializer}"

    def reads(self, other: Library) -> bool:
        """Same format, another runner (conventions decide what a failure means)."""
        return self.runner != other.runner and self.format == other.format

    def conventions(self, stream: bool = False) -> dict[str, str]:
        """Each convention this library declares: axis -> its form, in a fixed order
        (``stream``: on a stream dataset, with its framing)."""
        out = {}
        for axis, forms in AXES.items():
            declared = [f for f in forms if f in self.labels]
            if declared:
                out[axis] = declared[0]
        for label, instead in OWN.items():
            out[label] = f"{self.runner}'s {label}" if label in self.labels else instead
        for label, instead in (MARKS | STREAM_MARKS if stream else MARKS).items():
            out[label] = label if label in self.labels else instead
        return out


def differences(writer: Library, reader: Library, stream: bool = False) -> list[str]:
    """Each convention the writer and the reader both have and do not share, as "X vs Y"
    (two forms of their own, one per runner, as one phrase: a group, not a pair each)."""
    w, r = writer.conventions(stream), reader.conventions(stream)
    out = []
    for k in w:
        if k in r and w[k] != r[k]:
            both_own = k in OWN and k in writer.labels and k in reader.labels
            out.append(f"each runner's own {k}" if both_own else f"{w[k]} vs {r[k]}")
    return out


def shared(writer: Library, reader: Library, stream: bool = False) -> str:
    """The declared conventions of a pair inside one convention: its group's name."""
    w, r = writer.conventions(stream), reader.conventions(stream)
    forms = [w[k] for k in AXES if k in w and k in r]
    marks = MARKS | STREAM_MARKS if stream else MARKS
    return ", ".join([*forms, *(k for k in marks if k in writer.labels)]) or "-"


@dataclass
class Outcome:
    dataset: str
    writer: str
    reader: str
    ok: bool
    detail: str
    applicable: bool = True  # False: the reader cannot carry this dataset (not a failed read)
    format: str = ""
    conventions: str = "-"  # the pair's shared conventions, or "X vs Y; ..." across them
    across: bool = False  # writer and reader declare different conventions

    @property
    def check(self) -> str:
        if self.ok:
            return "OK"
        if not self.applicable:
            return "n/a"
        return "across" if self.across else "NG"

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "check": self.check}


def libraries(describes: dict[str, dict[str, Any]], dataset: str) -> list[Library]:
    out = []
    for runner, d in describes.items():
        for s in d["serializers"]:
            applicable = orchestrate.applicability(d, s, dataset).get("applicable")
            if "baseline" in s["labels"] or not applicable:
                continue
            out.append(Library(runner, s["name"], s["format"], tuple(s["labels"])))
    return out


def outcome(
    dataset: str, writer: Library, reader: Library, ok: bool, detail: str, applicable: bool = True
) -> Outcome:
    stream = dataset in datasets.DATASETS and datasets.get(dataset).framing == "stream"
    diffs = differences(writer, reader, stream)
    conventions = "; ".join(diffs) if diffs else shared(writer, reader, stream)
    return Outcome(
        dataset,
        writer.name,
        reader.name,
        ok,
        detail,
        applicable,
        writer.format,
        conventions,
        bool(diffs),
    )


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
        commands: list[PrepareRequest] = []
        pairs: list[tuple[str, Library, Library]] = []
        for ds in wanted:
            for reader in (lib for lib in libs[ds] if lib.runner == runner):
                for writer in libs[ds]:
                    f = written.get((writer.name, ds))
                    if f is not None and reader.reads(writer):
                        commands.append(_prepare(reader, wire[ds], decode_from=str(f)))
                        pairs.append((ds, writer, reader))
        for (ds, writer, reader), reply in zip(
            pairs, _prepare_all(specs[runner], commands), strict=True
        ):
            if isinstance(reply, str):
                outcomes.append(outcome(ds, writer, reader, False, reply))
                continue
            check, error = reply["check"], reply["error"]
            detail = (check and check["detail"]) or (error["message"] if error else "")
            applicable = reply["status"] != "not_applicable"
            ok = bool(check and check["ok"])
            outcomes.append(outcome(ds, writer, reader, ok, detail, applicable))
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


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    """The counts a report shows, and the groups: per dataset, format and conventions."""
    counts = {c: sum(o.check == c for o in outcomes) for c in CHECKS}
    groups: dict[tuple[str, str, str], dict[str, int]] = {}
    for o in outcomes:
        g = groups.setdefault((o.dataset, o.format, o.conventions), dict.fromkeys(CHECKS, 0))
        g[o.check] += 1
    return {
        "pairs": len(outcomes),
        "counts": counts,
        "intact_across": sum(o.ok and o.across for o in outcomes),
        "groups": [
            {"dataset": d, "format": f, "conventions": c, "across_conventions": " vs " in c, **n}
            for (d, f, c), n in sorted(groups.items())
        ],
    }


def write_json(outcomes: list[Outcome], path: Path | None = None) -> Path:
    """The JSON report (every pair, the groups); by default beside the untrusted-input
    reports, where the HTML report finds the latest one."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    path = path or state_dir() / "crosscheck" / f"crosscheck-{stamp}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "command": "crosscheck",
        "summary": summary(outcomes),
        "pairs": [o.as_dict() for o in outcomes],
    }
    path.write_text(json.dumps(doc, indent=1))
    return path
