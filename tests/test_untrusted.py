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
