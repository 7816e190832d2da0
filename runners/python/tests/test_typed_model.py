"""The build's typed models on a user dataset: typed rows once built, not applicable with
the reason before (or after its types changed); dynamic rows either way; incremental."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from serbench_runner_python.generate.build import build
from serbench_runner_python.generate.jobs import user_jobs
from serbench_runner_python.model import NOT_BUILT
from serbench_runner_python.serve import Server

FIXTURE = Path(__file__).parent / "fixtures" / "user"
TYPED = ("msgspec-json", "msgspec-msgpack", "msgpack-positional", "protobuf", "handwritten")
DYNAMIC = (
    "json",
    "orjson",
    "msgspec-json-dynamic",
    "msgspec-msgpack-dynamic",
    "msgpack",
    "cbor2",
    "pickle",
    "flexbuffers",
    "protobuf-dynamic",
    "noop",
)


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture registry, its descriptor set compiled; models built into tmp."""
    from grpc_tools import protoc

    folder = tmp_path / "user"
    shutil.copytree(FIXTURE, folder)
    events = folder / "events"
    args = ["protoc", f"-I{events}", f"--descriptor_set_out={events / 'events.pb'}", "events.proto"]
    assert protoc.main(args) == 0
    monkeypatch.setenv("SERBENCH_PYTHON_MODEL_DIR", str(tmp_path / "model"))
    return folder


def _prepare(registry: Path, serializer: str) -> dict[str, Any]:
    events = registry / "events"
    proto = {"path": str(events / "events.proto"), "message": "Event"}
    proto["descriptor_set"] = str(events / "events.pb")
    dataset = {
        "name": "events",
        "kind": "user",
        "data": str(events / "events.json"),
        "types": str(events / "events.types.json"),
        "schemas": {"proto": proto},
    }
    cmd = {
        "cmd": "prepare",
        "cell": "c",
        "serializer": serializer,
        "dataset": dataset,
        "operations": ["encode", "decode"],
    }
    return Server().handle(cmd)


def test_typed_rows_need_the_build(registry: Path, tmp_path: Path) -> None:
    for name in TYPED:
        reply = _prepare(registry, name)
        assert reply["status"] == "not_applicable", (name, reply)
        assert reply["error"]["message"] == NOT_BUILT
    for name in DYNAMIC:
        assert _prepare(registry, name)["status"] == "ok", name
    assert NOT_BUILT.endswith("run `serbench build -r python`")

    assert build(user_jobs(registry), tmp_path / "model")["generated"] == ["user_events"]
    for name in (*TYPED, *DYNAMIC):
        reply = _prepare(registry, name)
        assert reply["status"] == "ok", (name, reply)
    sizes = {name: _prepare(registry, name)["sizes"]["encoded"] for name in TYPED}
    assert sizes["msgpack-positional"] < sizes["msgspec-json"]  # arrays, no keys

    assert build(user_jobs(registry), tmp_path / "model")["unchanged"] == ["user_events"]

    types = registry / "events" / "events.types.json"
    types.write_text(types.read_text().replace('"high"]', '"high", "top"]'))
    assert _prepare(registry, "protobuf")["error"]["message"] == NOT_BUILT
    assert _prepare(registry, "msgpack")["status"] == "ok"


def test_a_lossy_typed_row_fails_its_check(registry: Path, tmp_path: Path) -> None:
    build(user_jobs(registry), tmp_path / "model")
    data = registry / "events" / "events.json"
    data.write_text(data.read_text().replace('"score":-0.0', '"score":"NaN"'))
    reply = _prepare(registry, "msgspec-json")  # JSON has no NaN: msgspec writes null
    assert reply["status"] == "check_failed", reply
    assert _prepare(registry, "protobuf")["status"] == "ok"


def test_a_schema_that_does_not_match_costs_only_its_row(registry: Path, tmp_path: Path) -> None:
    # a file and package of its own: this process's protobuf pool holds events.proto already
    folder = registry / "events"
    text = (folder / "events.proto").read_text().replace("  string class = 10;\n", "")
    (folder / "mismatch.proto").write_text(text.replace(".events;", ".mismatch;"))
    meta = folder / "dataset.json"
    meta.write_text(meta.read_text().replace('"events.proto"', '"mismatch.proto"'))
    assert build(user_jobs(registry), tmp_path / "model")["generated"] == ["user_events"]
    reply = _prepare(registry, "protobuf")
    assert reply["status"] == "not_applicable"
    assert reply["error"]["message"].endswith("Event has 9 fields, Event 10")
    assert _prepare(registry, "msgspec-json")["status"] == "ok"
