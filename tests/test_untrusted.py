"""The untrusted-input orchestrator on its own: suites, corruptions, classification, and
a runner process that dies or hangs mid-batch (a stand-in runner, no build needed)."""

from __future__ import annotations

import sys
from pathlib import Path

from serbench.runners import RunnerSpec
from serbench.store import Store
from serbench.untrusted import classify, mutate, suites
from serbench.untrusted.driver import Driver, Outcome
from serbench.untrusted.process import Limits
from serbench.untrusted.run import Recorder
from serbench.untrusted.targets import Target
from serbench.untrusted.values import first_difference

FAKE = Path(__file__).parent / "fixtures" / "untrusted" / "fake_runner.py"


def test_vendored_suites_are_complete_and_licensed() -> None:
    json_cases = suites.for_format("json")
    assert sum(c.suite == "JSONTestSuite" for c in json_cases) == 318
    assert sum(c.suite == "JSON_checker" for c in json_cases) == 36
    assert len(suites.for_format("msgpack")) == 233  # every listed encoding of 85 values
    assert len(suites.encode_cases("msgpack")) == 85
    assert len(suites.for_format("cbor")) > 200
    for folder in suites.SUITES_DIR.iterdir():
        if folder.is_dir():
            assert (folder / "LICENSE").exists(), folder


def test_corruptions_are_deterministic_and_varied() -> None:
    valid = bytes(range(200))
    a = list(mutate.corpus(valid, valid[::-1], 300, 23, "r", "s", "d"))
    b = list(mutate.corpus(valid, valid[::-1], 300, 23, "r", "s", "d"))
    assert a == b
    assert a != list(mutate.corpus(valid, valid[::-1], 300, 24, "r", "s", "d"))
    kinds = {name.split(":")[1].split("@")[0] for name, _ in a}
    assert kinds >= set(mutate.KINDS)
    assert sum(data != valid for _, data in a) > 280


def test_values_compare_numbers_by_value_and_maps_as_maps() -> None:
    assert first_difference({"a": [1, 2.0]}, {"a": [1.0, 2]}) is None
    assert first_difference({"$float": "NaN"}, {"$float": "NaN"}) is None
    assert first_difference([1, "x"], [1, "y"]) == '$[1]: "y" != "x"'
    assert first_difference({"$map": [[1, 2], [3, 4]]}, {"$map": [[3, 4], [1, 2]]}) is None


def test_conformance_classes() -> None:
    y = suites.Case("s", "y_x", b"[1]", "accept", [1], True)
    n = suites.Case("s", "n_x", b"[", "reject")
    i = suites.Case("s", "i_x", b"[", "either")
    assert classify.conformance(y, Outcome("accepted", [1]))[0] == "passed"
    assert classify.conformance(y, Outcome("accepted", [2]))[0] == "wrong_value"
    assert classify.conformance(y, Outcome("rejected", error="e"))[0] == "should_have_accepted"
    assert classify.conformance(n, Outcome("accepted", []))[0] == "should_have_rejected"
    assert classify.conformance(n, Outcome("error", error="RecursionError"))[0] == "crash"
    assert classify.conformance(n, Outcome("hang"))[0] == "timeout"
    assert classify.conformance(i, Outcome("rejected")) == ("passed", "rejected")


def test_robustness_classes() -> None:
    def cls(outcome: Outcome) -> str:
        return classify.robustness(outcome, {"a": 1}, 10)

    assert cls(Outcome("accepted", {"a": 1}, ns=10)) == "accepted_same"
    assert cls(Outcome("accepted", {"a": 2}, ns=10)) == "accepted_different"
    assert cls(Outcome("rejected", ns=10)) == "rejected"
    assert cls(Outcome("rejected", ns=10**9)) == "slow"
    assert cls(Outcome("error", error="TypeError")) == "crash"


def _fake(tmp_path: Path) -> RunnerSpec:
    return RunnerSpec("fake", "python", tmp_path, [sys.executable, str(FAKE)])


def test_a_runner_killed_mid_batch_loses_nothing(tmp_path: Path) -> None:
    """Inputs around the killer keep their outcomes, the killer and the hang are found
    alone by bisection, and every outcome is in the store as its batch answered."""
    inputs = [(f"{k}", b"ok%d" % k if k % 3 else b"bad") for k in range(40)]
    inputs[17] = ("17", b"xxKILLxx")
    inputs[30] = ("30", b"HANG")
    store = Store(tmp_path / "results.sqlite")
    recorder = Recorder(store, "test-session", "robustness")
    target = Target("fake", "dec", "json", _fake(tmp_path))
    seen: dict[str, Outcome] = {}

    def sink(batch: dict[str, Outcome]) -> None:
        seen.update(batch)
        rows = [(k, o.kind, o.error or "", b"", None) for k, o in batch.items()]
        recorder.save(target, "", rows)

    driver = Driver(_fake(tmp_path), deadline_s=1.0, limits=Limits(512 << 20, 60))
    try:
        driver.decode("dec", None, inputs, sink)
    finally:
        driver.close()
    assert len(seen) == 40
    assert seen["17"].kind == "crash" and "signal 9" in (seen["17"].error or "")
    assert seen["30"].kind == "hang"
    assert seen["16"].kind == "accepted" and seen["16"].value == "ok16"
    assert seen["18"].kind == "rejected"
    assert driver.respawns >= 2
    stored = {r["case_name"]: r["outcome"] for r in store.untrusted("test-session")}
    assert stored == {k: o.kind for k, o in seen.items()}
    store.close()


def _row(serializer: str, labels: list[str], **counts: int) -> dict:
    inputs = sum(counts.values())
    return {
        "runner": "r",
        "serializer": serializer,
        "format": "f",
        "dataset": "d",
        "labels": labels,
        "counts": counts,
        "inputs": inputs,
        "skipped": None,
        "failures": [],
    }


def test_safety_labels_are_shown_with_their_evidence() -> None:
    from serbench.report import untrusted as report

    rows = [
        _row("pickle", ["unsafe-untrusted-input"], crash=21, excessive_allocation=1, rejected=178),
        _row("json", [], rejected=99, crash=1),
        _row("rkyv-access", ["validated"], rejected=100),
        _row("plain", [], rejected=100),
        _row("flatbuffers", ["unvalidated"], crash=7, rejected=93),
    ]
    by = {e["decoder"]: e for e in report.evidence(rows)}
    assert by["r/pickle"]["text"] == "r/pickle: 21 crashes, 1 excessive allocation in 200"
    assert by["r/pickle"]["flag"] is None  # labelled unsafe: the evidence agrees
    assert by["r/json"]["flag"] == "labelled safe, but 1 crash"
    assert by["r/flatbuffers"]["flag"] is None  # its label says it trusts the input
    lines = dict(report.evidence_lines(rows))
    assert lines == {
        "evidence [unsafe-untrusted-input]: r/pickle: 21 crashes, 1 excessive allocation in 200": (
            False
        ),
        "FLAG r/json: labelled safe, but 1 crash": True,
        "evidence [validated]: r/rkyv-access: no crash, hang or excessive allocation in 100": (
            False
        ),
        "evidence [unvalidated]: r/flatbuffers: 7 crashes in 100": False,
    }
    columns, cells = report.robustness_table(rows)
    assert columns[1] == "safety labels" and cells[0][1] == "unsafe-untrusted-input"


def test_robustness_killed_mid_run_resumes_without_feeding_stored_inputs(tmp_path: Path) -> None:
    """A real run of the Python runner's msgpack decoder, SIGKILLed once outcomes are
    stored; `--resume` feeds only the rest and reports the whole run."""
    import json
    import os
    import signal
    import sqlite3
    import subprocess
    import time

    db, report = tmp_path / "r.sqlite", tmp_path / "report.json"
    count = 3000
    args = [sys.executable, "-m", "serbench", "robustness", "-r", "python", "-s", "msgpack"]
    args += ["-d", "android-users", "--count", str(count), "--db", str(db), "--json", str(report)]
    env = {**os.environ, "SERBENCH_HOME": str(tmp_path / "home"), "COLUMNS": "200"}

    def stored() -> int:
        if not db.exists():
            return 0
        try:
            with sqlite3.connect(db) as conn:
                return conn.execute("select count(*) from untrusted_outcomes").fetchone()[0]
        except sqlite3.OperationalError:  # the table is not made yet
            return 0

    proc = subprocess.Popen(args, env=env, start_new_session=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while stored() == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = stored()
    assert 0 < before < count, before
    assert not report.exists()  # killed before its report
    done = subprocess.run([*args, "--resume"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"{before} stored outcomes are not fed again" in " ".join(done.stderr.split())
    (row,) = json.loads(report.read_text())["results"]
    assert row["resumed"] == before and row["inputs"] == count
    assert sum(row["counts"].values()) == count
    assert stored() == count  # one row per input: none fed twice


def test_validated_and_unvalidated_access_are_told_apart(tmp_path: Path) -> None:
    """Rust's rkyv rows on the same corruptions: the validated access refuses what it
    cannot check; the unvalidated one has no refusal to give (it reads in place), so every
    corruption is accepted, read as something else, or kills the process."""
    from conftest import runner_or_skip

    from serbench.untrusted import run, targets

    runner_or_skip("rust")
    found, _ = targets.find(None, ["rust"], ["rkyv-access", "rkyv-access-unvalidated"])
    profile = run.Profile("test", 150, ("android-users",), 5.0)
    recorder = Recorder(Store(tmp_path / "r.sqlite"), "s", "robustness")
    results = {r.serializer: r for r in run.robustness(found, recorder, profile)}
    validated, unvalidated = results["rkyv-access"], results["rkyv-access-unvalidated"]
    assert validated.skipped is None and unvalidated.skipped is None
    assert validated.counts["rejected"] > 0
    assert not any(validated.counts[c] for c in ("crash", "hang", "excessive_allocation"))
    assert unvalidated.counts["rejected"] == 0, unvalidated.counts
    assert unvalidated.inputs == validated.inputs == 150
    assert "unvalidated" in unvalidated.labels and "validated" in validated.labels


def test_avro_interop_matrix_names_each_codec_that_failed() -> None:
    from serbench.report import untrusted as report
    from serbench.untrusted import avro_interop

    records = avro_interop.records()
    assert avro_interop.schema()["name"] == "Interop" and len(records) == 3
    assert records[1]["longField"] < -(2**53)  # past a double's exact integers
    rows = [
        {"runner": "a", "serializer": "x", "interop": {"a/x null": "passed", "b/y null": "passed"}},
        {
            "runner": "b",
            "serializer": "y",
            "interop": {"a/x null": "wrong_value", "a/x deflate": "passed", "b/y null": "passed"},
        },
    ]
    columns, cells = report.interop_table(rows)
    assert columns[1:] == ["a/x", "b/y"]
    assert cells == [["a/x", "ok", "ok"], ["b/y", "deflate: ok, null: WRONG", "ok"]]
