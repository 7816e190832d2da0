"""`serbench conformance` and `serbench robustness`: drive the decoders, classify, store.

Every outcome is stored as its batch answers (the `untrusted_outcomes` table), so a run
that is killed keeps what it classified and `--resume` feeds only the rest; the results
come back as plain dicts for the report (serbench.report.untrusted).
"""

from __future__ import annotations

import base64
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from serbench import datasets
from serbench.store import Store
from serbench.untrusted import classify, mutate, reproducers, suites
from serbench.untrusted.driver import Driver, Outcome, Unavailable
from serbench.untrusted.process import Fault
from serbench.untrusted.resume import Stored
from serbench.untrusted.targets import Target

Progress = Callable[[str], None]


@dataclass
class Profile:
    name: str
    inputs: int  # corrupted inputs per decoder and dataset
    datasets: tuple[str, ...] | None  # None: every built-in dataset the decoder carries
    deadline_s: float  # per input
    seed: int = 23


# quick (CI): two small single-message datasets; each crash costs a respawn of the runner
QUICK = Profile("quick", 100, ("android-users", "pb-vs-msgpack-test2"), 2.0)
STANDARD = Profile("standard", 10_000, None, 5.0)


@dataclass
class TargetResult:
    runner: str
    serializer: str
    fmt: str
    dataset: str = ""
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[dict[str, str]] = field(default_factory=list)
    skipped: str | None = None
    inputs: int = 0
    seconds: float = 0.0
    respawns: int = 0
    limits: str = ""
    labels: list[str] = field(default_factory=list)
    resumed: int = 0  # outcomes taken from the stored session, not fed again
    matrix: dict[str, str] = field(default_factory=dict)  # Avro interop: file -> class read

    def add(self, cls: str, failure: dict[str, str] | None = None) -> None:
        self.counts[cls] += 1
        self.inputs += 1
        if failure is not None:
            self.failures.append(failure)

    def as_dict(self) -> dict[str, Any]:
        rate = self.inputs / self.seconds if self.seconds else None
        return {
            "runner": self.runner,
            "serializer": self.serializer,
            "format": self.fmt,
            "dataset": self.dataset or None,
            "counts": dict(self.counts),
            "inputs": self.inputs,
            "seconds": round(self.seconds, 3),
            "inputs_per_second": round(rate, 1) if rate else None,
            "respawns": self.respawns,
            "resumed": self.resumed,
            "limits": self.limits,
            "labels": self.labels,
            "skipped": self.skipped,
            "failures": self.failures,
            **({"interop": self.matrix} if self.matrix else {}),
        }


def session_name(command: str) -> str:
    return f"{command}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S.%fZ')}"


def new_result(target: Target, dataset: str = "", skipped: str | None = None) -> TargetResult:
    return TargetResult(
        target.runner, target.serializer, target.fmt, dataset, skipped=skipped, labels=target.labels
    )


class Recorder:
    """Stores each outcome as it arrives; when resuming, knows what the session stored."""

    def __init__(
        self,
        store: Store | None,
        session: str,
        command: str,
        done: dict[tuple[str, str, str], Stored] | None = None,
    ) -> None:
        self.store, self.session, self.command = store, session, command
        self.done = done or {}

    def stored(self, target: Target, dataset: str) -> Stored:
        return self.done.get((target.runner, target.serializer, dataset), {})

    def save(self, target: Target, dataset: str, rows: list[tuple[str, str, str, bytes, int]]):
        if self.store is None or not rows:
            return
        self.store.save_untrusted(
            [
                {
                    "session": self.session,
                    "command": self.command,
                    "runner": target.runner,
                    "serializer": target.serializer,
                    "dataset": dataset,
                    "case_name": name,
                    "outcome": outcome,
                    "detail": detail[:1000],
                    "input_sha256": reproducers.sha256(data),
                    "ns": ns,
                }
                for name, outcome, detail, data, ns in rows
            ]
        )


def conformance(
    targets: list[Target],
    recorder: Recorder,
    case_filter: str | None = None,
    deadline_s: float = 5.0,
    progress: Progress = lambda _: None,
) -> list[TargetResult]:
    results = []
    for target in targets:
        result = new_result(target)
        results.append(result)
        cases = [c for c in suites.for_format(target.fmt) if _wanted(c.name, case_filter)]
        if target.skipped or target.spec is None:
            result.skipped = target.skipped
            continue
        if not suites.for_format(target.fmt):
            result.skipped = f"no public conformance suite vendored for {target.fmt}"
            continue
        progress(f"conformance {target.key}: {len(cases)} cases")
        driver = Driver(target.spec, deadline_s)
        result.limits = driver.limits.describe()
        start = time.monotonic()
        try:
            _conformance_decode(driver, target, cases, result, recorder)
            if result.skipped is None:
                _conformance_encode(driver, target, case_filter, result, recorder)
        except Fault as fault:  # the runner does not even start
            result.skipped = f"runner failed: {fault.detail}"
        finally:
            result.seconds = time.monotonic() - start
            result.respawns = driver.respawns
            driver.close()
    return results


def _wanted(name: str, case_filter: str | None) -> bool:
    return case_filter is None or name == case_filter or name.startswith(case_filter + " ")


def _conformance_decode(
    driver: Driver, target: Target, cases: list[suites.Case], result: TargetResult, rec: Recorder
) -> None:
    by_key = {f"{c.suite}:{c.name}": c for c in cases}

    def count(key: str, cls: str, detail: str) -> None:
        failure = _failure(target, key, cls, detail) if cls != "passed" else None
        result.add(cls, failure)
        if by_key[key].expect == "either" and cls == "passed":
            result.counts[f"implementation_defined_{detail}"] += 1

    def sink(outcomes: dict[str, Outcome]) -> None:
        rows = []
        for key, outcome in outcomes.items():
            case = by_key[key]
            cls, detail = classify.conformance(case, outcome)
            count(key, cls, detail)
            rows.append((key, cls, detail, case.data, outcome.ns))
        rec.save(target, "", rows)

    done = rec.stored(target, "")
    for key in by_key.keys() & done.keys():
        count(key, done[key]["outcome"], done[key]["detail"] or "")
        result.resumed += 1
    todo = [(k, c.data) for k, c in by_key.items() if k not in done]
    try:
        driver.decode(target.serializer, None, todo, sink)
    except Unavailable as exc:
        result.skipped = f"{exc.code}: {exc}"


def _failure(target: Target, key: str, cls: str, detail: str) -> dict[str, str]:
    name = key.split(":", 1)[1]
    return {
        "case": key,
        "class": cls,
        "detail": detail[:300],
        "replay": reproducers.replay_conformance(target.runner, target.serializer, name),
    }


def _conformance_encode(
    driver: Driver, target: Target, case_filter: str | None, result: TargetResult, rec: Recorder
) -> None:
    rows = []
    for case in suites.encode_cases(target.fmt):
        if not _wanted(case.name, case_filter):
            continue
        key = f"{case.suite} (encode):{case.name.split(' ')[0]}"
        stored = rec.stored(target, "").get(key)
        if stored is not None:
            cls, detail = stored["outcome"], stored["detail"] or ""
            result.add(cls, _failure(target, key, cls, detail) if cls != "passed" else None)
            result.resumed += 1
            continue
        cmd = {"cmd": "untrusted_encode", "serializer": target.serializer, "value": case.value}
        try:
            reply = driver.command(cmd, driver.deadline_s)
            produced, error = base64.b64decode(reply["b64"]), None
        except Unavailable:
            return  # a decoder without a generic encode: the decode side is its result
        except Fault as fault:
            produced, error = None, fault.detail
        cls, detail = classify.encoding(case, produced, error)
        result.add(cls, _failure(target, key, cls, detail) if cls != "passed" else None)
        rows.append((key, cls, detail, produced or b"", None))
    rec.save(target, "", rows)


def dataset_object(name: str) -> dict[str, Any]:
    return {"name": name, "kind": "builtin", "data": str(datasets.get(name).build("quick").path())}


def robustness(
    targets: list[Target],
    recorder: Recorder,
    profile: Profile,
    only_datasets: list[str] | None = None,
    user_inputs: list[Path] | None = None,
    progress: Progress = lambda _: None,
) -> list[TargetResult]:
    results = []
    for target in targets:
        names = [d for d in target.datasets if profile.datasets is None or d in profile.datasets]
        if only_datasets:
            names = [d for d in target.datasets if d in only_datasets]
        if user_inputs is not None and not only_datasets:
            names = [""]  # the user's files, decoded as generic values
        if target.skipped or target.spec is None:
            results.append(new_result(target, skipped=target.skipped))
            continue
        driver = Driver(target.spec, profile.deadline_s)
        try:
            for name in names:
                progress(f"robustness {target.key} on {name or 'your inputs'}")
                result = new_result(target, name)
                result.limits = driver.limits.describe()
                results.append(result)
                start = time.monotonic()
                try:
                    _robust_one(driver, target, name, profile, user_inputs, result, recorder)
                except Unavailable as exc:
                    result.skipped = f"{exc.code}: {exc}"
                except Fault as fault:
                    result.skipped = f"valid input failed: {fault.kind}: {fault.detail}"
                result.seconds = time.monotonic() - start
                result.respawns = driver.respawns
        finally:
            driver.close()
    return results


def _robust_one(
    driver: Driver,
    target: Target,
    name: str,
    profile: Profile,
    user_inputs: list[Path] | None,
    result: TargetResult,
    rec: Recorder,
) -> None:
    dataset = dataset_object(name) if name else None
    reference: Any = None
    ref_ns: int | None = None
    if user_inputs is not None:
        inputs = [(str(p), p.read_bytes()) for p in user_inputs]
    else:
        valid, other = (_encode(driver, target, dataset, m) for m in (0, 1))
        ref = _decode_one(driver, target, dataset, valid)
        if ref.kind != "accepted":
            raise Unavailable(
                "check_failed", f"its own encoding decodes as {ref.kind}: {ref.error}"
            )
        reference, ref_ns = ref.value, ref.ns
        seed_names = (target.runner, target.serializer, name)
        inputs = list(mutate.corpus(valid, other, profile.inputs, profile.seed, *seed_names))
    data_of = dict(inputs)

    def failure(key: str, cls: str, detail: str) -> dict[str, str] | None:
        if cls not in classify.FAILURES:
            return None
        path = reproducers.save(data_of[key])
        replay = reproducers.replay_robustness(target.runner, target.serializer, name, path)
        return {"case": key, "class": cls, "detail": detail[:300], "replay": replay}

    def sink(outcomes: dict[str, Outcome]) -> None:
        rows = []
        for key, outcome in outcomes.items():
            if user_inputs is not None and outcome.kind in ("accepted", "rejected"):
                cls = outcome.kind
            else:
                cls = classify.robustness(outcome, reference, ref_ns)
            detail = outcome.error or ""
            result.add(cls, failure(key, cls, detail))
            rows.append((key, cls, detail, data_of[key], outcome.ns))
        rec.save(target, name, rows)

    done = rec.stored(target, name)
    for key in data_of.keys() & done.keys():
        cls, detail = done[key]["outcome"], done[key]["detail"] or ""
        result.add(cls, failure(key, cls, detail))
        result.resumed += 1
    driver.decode(target.serializer, dataset, [i for i in inputs if i[0] not in done], sink)


def _encode(driver: Driver, target: Target, dataset: dict[str, Any] | None, message: int) -> bytes:
    cmd = {"cmd": "untrusted_encode", "serializer": target.serializer, "dataset": dataset}
    reply = driver.command({**cmd, "message": message}, 120.0)
    return base64.b64decode(reply["b64"])


def _decode_one(
    driver: Driver, target: Target, dataset: dict[str, Any] | None, data: bytes
) -> Outcome:
    got: dict[str, Outcome] = {}
    driver.decode(target.serializer, dataset, [("valid", data)], got.update)
    return got["valid"]
