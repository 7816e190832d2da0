"""Bytes written by one runner's protobuf are read back intact by Python's."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import runner_or_skip

from serbench import crosscheck, runners


@pytest.mark.parametrize("writer", [name for name in runners.discover() if name != "python"])
def test_protobuf_bytes_cross_languages(writer: str, tmp_path: Path) -> None:
    specs = {"python": runners.PYTHON, writer: runner_or_skip(writer)}
    describes = {name: runners.describe(spec) for name, spec in specs.items()}
    protobufs = {
        f"{writer}/{s['name']}"
        for s in describes[writer]["serializers"]
        if s["format"] == "protobuf" and s["datasets"]["android-users"]["applicable"]
    }
    if not protobufs:
        pytest.skip(f"{writer} has no protobuf serializer")
    wanted = ["android-users", "pb-vs-msgpack-test2", "log-records"]
    outcomes = crosscheck.run(specs, describes, wanted, "quick", tmp_path)
    pb = [o for o in outcomes if o.writer in protobufs and o.reader == "python/protobuf"]
    assert {o.dataset for o in pb} == set(wanted)
    assert all(o.ok for o in pb), [(o.writer, o.dataset, o.detail) for o in pb if not o.ok]


def test_layouts_must_match() -> None:
    a = crosscheck.Library("java", "msgpack-core", "msgpack", positional=True)
    b = crosscheck.Library("python", "msgpack", "msgpack", positional=False)
    c = crosscheck.Library("python", "msgpack-positional", "msgpack", positional=True)
    assert not b.reads(a) and c.reads(a) and not c.reads(c)


def test_a_schema_formats_layout_is_its_schemas() -> None:
    def describe(runner: str, labels: list[str]) -> dict:
        ok = {"android-users": {"applicable": True}}
        s = {"name": "avro", "format": "avro", "labels": labels, "datasets": ok}
        return {"runner": runner, "serializers": [s], "capabilities": []}

    go = describe("go", ["binary", "schema-required", "positional"])
    java = describe("java", ["binary", "schema-required"])
    libs = crosscheck.libraries({"go": go, "java": java}, "android-users")
    assert len(libs) == 2 and libs[0].reads(libs[1]) and libs[1].reads(libs[0])
