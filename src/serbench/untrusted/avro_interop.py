"""Avro's interop test across runners: every Avro row writes an object container file of
interop.avsc's records (once per codec), every Avro row reads every file back
(docs/runner-protocol.md, section 11, capability `avro_container`)."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from serbench.untrusted import classify, reproducers
from serbench.untrusted.driver import Driver, Outcome, Unavailable
from serbench.untrusted.process import Fault
from serbench.untrusted.run import Progress, Recorder, TargetResult, new_result
from serbench.untrusted.suites import SUITES_DIR, Case
from serbench.untrusted.targets import Target

ROOT = SUITES_DIR / "avro-interop"
CAPABILITY = "avro_container"
CODECS = ("null", "deflate")
SUITE = "avro-interop"
MAGIC = b"Obj\x01"  # an object container file's first bytes


@cache
def schema() -> dict[str, Any]:
    return json.loads((ROOT / "interop.avsc").read_text())


@cache
def records() -> list[Any]:
    return json.loads((ROOT / "datum.json").read_text(encoding="utf-8"))["records"]


def encode_command(serializer: str, codec: str) -> dict[str, Any]:
    return {
        "cmd": "untrusted_encode",
        "serializer": serializer,
        "container": {"schema": schema(), "codec": codec},
        "value": records(),
    }


def decode_command(serializer: str, files: list[tuple[str, bytes]]) -> dict[str, Any]:
    inputs = [{"id": name, "b64": base64.b64encode(data).decode()} for name, data in files]
    return {
        "cmd": "untrusted_decode",
        "serializer": serializer,
        "container": True,
        "inputs": inputs,
    }


@dataclass(frozen=True)
class File:
    """One writer's container file: `runner/serializer codec`."""

    writer: str
    codec: str
    data: bytes

    @property
    def name(self) -> str:
        return f"{self.writer} {self.codec}"


def wanted(case_filter: str | None) -> bool:
    """The interop runs unless a case filter names another suite's case."""
    return case_filter is None or case_filter == SUITE or case_filter.startswith(SUITE + " ")


def _writer_filter(case_filter: str | None) -> str | None:
    """`avro-interop java/avro` (or `... java/avro deflate`): only that writer's files."""
    if case_filter is None or case_filter == SUITE:
        return None
    return case_filter.removeprefix(SUITE + " ")


def run(
    readers: list[Target],
    writers: list[Target],
    recorder: Recorder,
    case_filter: str | None = None,
    deadline_s: float = 5.0,
    progress: Progress = lambda _: None,
) -> list[TargetResult]:
    """Every writer's files (one per codec), then every reader on all of them."""
    results = {t.key: new_result(t) for t in [*readers, *writers]}
    only = _writer_filter(case_filter)
    files: list[File] = []
    for target in writers:
        if _able(target, results[target.key]):
            progress(f"{SUITE}: {target.key} writes")
            files += _write(target, results[target.key], recorder, deadline_s, only)
    for target in readers:
        if files and _able(target, results[target.key]):
            progress(f"{SUITE}: {target.key} reads {len(files)} files")
            _read(target, files, results[target.key], recorder, deadline_s)
    return [results[t.key] for t in readers] + [
        results[t.key] for t in writers if t.key not in {r.key for r in readers}
    ]


def _able(target: Target, result: TargetResult) -> bool:
    if target.skipped or target.spec is None:
        result.skipped = target.skipped
    elif CAPABILITY not in target.capabilities:
        result.skipped = f"the runner does not declare `{CAPABILITY}` (docs/runner-protocol.md)"
    return result.skipped is None


def _write(
    target: Target, result: TargetResult, rec: Recorder, deadline_s: float, only: str | None
) -> list[File]:
    files, rows = [], []
    driver = Driver(target.spec, deadline_s)  # type: ignore[arg-type]  # _able checked it
    try:
        for codec in CODECS:
            file = File(target.key, codec, b"")
            if only and not (file.name == only or file.name.startswith(only + " ")):
                continue
            key = f"{SUITE} (write):{codec}"
            try:
                data = base64.b64decode(
                    driver.command(encode_command(target.serializer, codec))["b64"]
                )
            except Unavailable as exc:
                result.skipped = f"{exc.code}: {exc}"
                return files
            except Fault as fault:
                cls, detail, data = "crash", f"{fault.kind}: {fault.detail}", b""
            else:
                ok = data[:4] == MAGIC
                cls, detail = (
                    ("passed", f"{len(data)} B") if ok else ("wrong_value", "no Obj1 magic")
                )
                if ok:
                    files.append(File(target.key, codec, data))
            failure = None if cls == "passed" else _failure(target, key, cls, detail)
            result.add(cls, failure)
            rows.append((key, cls, detail, data, None))
    finally:
        result.respawns += driver.respawns
        driver.close()
    rec.save(target, "", rows)
    return files


def _read(
    target: Target, files: list[File], result: TargetResult, rec: Recorder, deadline_s: float
) -> None:
    cases = {
        f"{SUITE}:{f.name}": Case(SUITE, f.name, f.data, "accept", records(), True) for f in files
    }
    done = rec.stored(target, "")

    def count(key: str, cls: str, detail: str) -> None:
        result.add(cls, None if cls == "passed" else _failure(target, key, cls, detail))
        result.matrix[cases[key].name] = cls

    def sink(outcomes: dict[str, Outcome]) -> None:
        rows = []
        for key, outcome in outcomes.items():
            cls, detail = classify.conformance(cases[key], outcome)
            count(key, cls, detail)
            rows.append((key, cls, detail, cases[key].data, outcome.ns))
        rec.save(target, "", rows)

    for key in cases.keys() & done.keys():
        count(key, done[key]["outcome"], done[key]["detail"] or "")
        result.resumed += 1
    todo = [(k, c.data) for k, c in cases.items() if k not in done]
    driver = Driver(target.spec, deadline_s)  # type: ignore[arg-type]  # _able checked it
    start = time.monotonic()
    try:
        driver.decode(target.serializer, None, todo, sink, container=True)
    except Unavailable as exc:
        result.skipped = f"{exc.code}: {exc}"
    except Fault as fault:  # the runner does not even start
        result.skipped = f"runner failed: {fault.detail}"
    finally:
        result.seconds += time.monotonic() - start
        result.respawns += driver.respawns
        driver.close()


def _failure(target: Target, key: str, cls: str, detail: str) -> dict[str, str]:
    name = key.split(":", 1)[1]
    case = f"{SUITE} {name}" if " (write)" not in key else f"{SUITE} {target.key} {name}"
    replay = reproducers.replay_conformance(target.runner, target.serializer, case)
    return {"case": key, "class": cls, "detail": detail[:300], "replay": replay}
