"""The runner conformance test of docs/runner-protocol.md section 9, for every runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import available_runners, data_path, results, run_request, runner_or_skip

from serbench import datasets, runners, transport

KNOWN_LABELS = {
    "text",
    "binary",
    "schemaless",
    "schema-required",
    "copying-decode",
    "zero-copy-decode",
    "positional",
    "handwritten",
    "unsafe-untrusted-input",
    "registration-required",
    "baseline",
    "lazy-access",
}
RESULT_STATUSES = {"ok", "check_failed", "not_applicable", "unsupported", "error"}

pytestmark = pytest.mark.parametrize("runner", available_runners())


def _describe(runner: str) -> tuple[runners.RunnerSpec, dict]:
    spec = runner_or_skip(runner)
    return spec, runners.describe(spec)


def _reference_serializer(d: dict) -> dict:
    """A real (non-baseline) serializer applicable to every dataset, else the broadest one."""
    real = [s for s in d["serializers"] if "baseline" not in s["labels"]]
    return max(real, key=lambda s: sum(v["applicable"] for v in s["datasets"].values()))


def test_describe(runner: str) -> None:
    _, d = _describe(runner)
    assert d["protocol"] == 1 and d["runner"] == runner
    assert d["runtime"]["name"] and d["runtime"]["version"]
    names = [s["name"] for s in d["serializers"]]
    assert "noop" in names and len(names) == len(set(names))
    for s in d["serializers"]:
        assert s["format"] and s["library"] and s["version"], s
        assert set(s["labels"]) <= KNOWN_LABELS, (s["name"], set(s["labels"]) - KNOWN_LABELS)
        assert set(s["datasets"]) == set(datasets.DATASETS), s["name"]
        for ds, entry in s["datasets"].items():
            assert entry["applicable"] or entry.get("reason"), (s["name"], ds)


def test_a_cell_on_every_dataset(runner: str) -> None:
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    cells = [
        {
            "serializer": ser["name"],
            "dataset": ds,
            "data": data_path(ds),
            "operations": ["encode", "decode"],
        }
        for ds in datasets.DATASETS
    ]
    code, events = run_request(spec, cells)
    assert code == 0
    assert events[-1] == {"event": "done"}
    starts = [e for e in events if e["event"] == "start"]
    assert [(e["serializer"], e["dataset"]) for e in starts] == [
        (ser["name"], ds) for ds in datasets.DATASETS
    ]
    got = results(events)
    assert len(got) == 2 * len(datasets.DATASETS)
    for r in got:
        assert r["status"] in RESULT_STATUSES
        applicable = ser["datasets"][r["dataset"]]["applicable"]
        if not applicable:
            assert r["status"] == "not_applicable" and r["error"]["message"]
            continue
        assert r["status"] == "ok", r
        assert r["check"]["ok"] is True
        assert r["sizes"]["encoded"] > 0 and r["messages"] >= 1
        t = r["timing"]
        assert t["iterations"] >= 1 and len(t["wall_ns"]) >= QUICK_MIN
        assert len(t["cpu_ns"]) == len(t["wall_ns"]) and min(t["wall_ns"]) > 0
        assert set(t["warmup"]) >= {"samples", "wall_ns", "steady"}


QUICK_MIN = 3


def test_noop_runs(runner: str) -> None:
    spec, _ = _describe(runner)
    cells = [
        {
            "serializer": "noop",
            "dataset": "android-users",
            "data": data_path("android-users"),
            "operations": ["encode", "decode"],
        }
    ]
    code, events = run_request(spec, cells)
    assert code == 0
    assert [r["status"] for r in results(events)] == ["ok", "ok"]


def test_tampered_check_data_fails_the_check(runner: str, tmp_path: Path) -> None:
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    original = data_path("android-users")
    doc = json.loads(Path(original).read_text())
    doc["items"][0][17]["age"] = (doc["items"][0][17]["age"] + 1) % 50
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    cells = [
        {
            "serializer": ser["name"],
            "dataset": "android-users",
            "data": original,
            "check_data": str(tampered),
            "operations": ["encode", "decode"],
        }
    ]
    code, events = run_request(spec, cells)
    assert code == 0
    got = results(events)
    assert [r["status"] for r in got] == ["check_failed", "check_failed"]
    assert got[0]["check"]["ok"] is False and "age" in got[0]["check"]["detail"]
    assert not got[0].get("timing")


def test_unknown_names_are_clean_errors(runner: str) -> None:
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    path = data_path("android-users")
    cells = [
        {
            "serializer": "no-such-lib",
            "dataset": "android-users",
            "data": path,
            "operations": ["encode"],
        },
        {
            "serializer": ser["name"],
            "dataset": "no-such-dataset",
            "data": path,
            "operations": ["encode"],
        },
        {"serializer": "noop", "dataset": "android-users", "data": path, "operations": ["encode"]},
    ]
    code, events = run_request(spec, cells)
    assert code == 0
    got = results(events)
    assert [r["status"] for r in got] == ["error", "error", "ok"]
    assert got[0]["error"]["code"] == "unknown_serializer" and "noop" in got[0]["error"]["message"]
    assert got[1]["error"]["code"] == "unknown_dataset"
    assert "android-users" in got[1]["error"]["message"]


def test_malformed_request(runner: str) -> None:
    spec, _ = _describe(runner)
    code, events = run_request(spec, [], raw="{not json")
    assert code == 2
    assert events and events[-1]["event"] == "error" and events[-1]["code"] == "bad_request"


def test_transport_when_declared(runner: str) -> None:
    _, d = _describe(runner)
    if "transport" not in d.get("capabilities", []):
        pytest.skip(f"{runner} does not declare the optional transport capability")
    ser = _reference_serializer(d)
    side = transport.Side(runner, ser["name"])
    result = transport.transfer(side, side, runners.discover(), "one-mb-dict", "quick", 2, 1)
    assert result["receive"]["check"]["ok"] is True
