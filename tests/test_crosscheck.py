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


def lib(runner: str, name: str, fmt: str, *labels: str) -> crosscheck.Library:
    return crosscheck.Library(runner, name, fmt, labels)


def test_a_failure_across_conventions_is_not_ng() -> None:
    positional = lib("java", "msgpack-core", "msgpack", "positional", "enum-as-ordinal")
    mapped = lib("python", "msgpack", "msgpack", "map-layout", "enum-as-ordinal")
    names = lib("java", "jackson-msgpack", "msgpack", "map-layout", "enum-as-name")
    assert mapped.reads(positional) and not names.reads(positional)  # same runner: no pair
    assert crosscheck.differences(positional, mapped) == ["positional vs map-layout"]
    assert crosscheck.differences(names, mapped) == ["enum-as-name vs enum-as-ordinal"]
    across = crosscheck.outcome("android-users", names, mapped, False, "$[0].gender: 'Male'")
    assert across.check == "across" and across.conventions == "enum-as-name vs enum-as-ordinal"
    real = crosscheck.outcome("android-users", mapped, mapped, False, "$[0].name: '' != 'a'")
    assert real.check == "NG" and real.conventions == "map-layout, enum-as-ordinal"
    intact = crosscheck.outcome("android-users", names, mapped, True, "30 records equal")
    assert intact.check == "OK" and intact.across


def test_a_library_of_its_own_shares_no_convention() -> None:
    go = lib("go", "handwritten", "custom-binary", "handwritten", "positional")
    py = lib("python", "handwritten", "custom-binary", "handwritten")
    assert crosscheck.differences(py, go) == ["each runner's own handwritten"]
    dcjs = lib("dotnet", "datacontractjsonserializer", "json", "map-layout", "runtime-names")
    plain = lib("rust", "serde_json", "json", "map-layout", "enum-as-ordinal")
    assert crosscheck.differences(dcjs, plain) == ["dotnet's runtime-names vs the dataset's names"]
    root = lib("dotnet", "json.net-bson", "bson", "map-layout", "root-list-document")
    bson = lib("go", "bson", "bson", "map-layout")
    assert crosscheck.differences(root, bson) == [
        "root-list-document vs a root list as an items field"
    ]


def test_a_schema_formats_layout_is_its_schemas() -> None:
    def describe(runner: str, labels: list[str]) -> dict:
        ok = {"android-users": {"applicable": True}}
        s = {"name": "avro", "format": "avro", "labels": labels, "datasets": ok}
        return {"runner": runner, "serializers": [s], "capabilities": []}

    go = describe("go", ["binary", "schema-required", "positional"])
    java = describe("java", ["binary", "schema-required"])
    libs = crosscheck.libraries({"go": go, "java": java}, "android-users")
    assert len(libs) == 2 and libs[0].reads(libs[1]) and libs[1].reads(libs[0])
    assert crosscheck.differences(libs[0], libs[1]) == []  # only go declares a layout


def test_the_report_groups_pairs_by_convention(tmp_path: Path) -> None:
    import json

    from rich.console import Console

    from serbench.report import interop

    a = lib("go", "json", "json", "map-layout", "enum-as-ordinal")
    b = lib("java", "jackson-json", "json", "map-layout", "enum-as-name")
    c = lib("rust", "serde_json", "json", "map-layout", "enum-as-ordinal")
    outcomes = [
        crosscheck.outcome("android-users", b, a, False, "cannot decode: gender"),
        crosscheck.outcome("android-users", a, c, True, "30 records equal"),
        crosscheck.outcome("android-users", c, a, False, "$[3].name: 'x' != 'y'\nmore"),
    ]
    path = crosscheck.write_json(outcomes, tmp_path / "x.json")
    doc = json.loads(path.read_text())
    assert doc["summary"]["counts"] == {"OK": 1, "NG": 1, "across": 1, "n/a": 0}
    groups = {g["conventions"]: g for g in doc["summary"]["groups"]}
    assert groups["enum-as-name vs enum-as-ordinal"]["across_conventions"] is True
    assert groups["map-layout, enum-as-ordinal"]["NG"] == 1
    console = Console(record=True, width=200)
    interop.print_crosscheck(doc, console)
    text = console.export_text()
    assert "3 pairs: 1 read back intact" in text and "1 real incompatibilities" in text
    assert "rust/serde_json" in text and "$[3].name: 'x' != 'y'" in text
    assert "across conventions (enum-as-name vs enum-as-ordinal): 1 pairs" in text


def test_stream_framing_counts_on_stream_datasets_only() -> None:
    concatenated = lib("objc", "msgpack-c", "msgpack", "map-layout", "stream-concatenated")
    prefixed = lib("node", "msgpackr", "msgpack", "map-layout")
    assert crosscheck.differences(concatenated, prefixed) == []  # one message: no framing
    assert crosscheck.differences(concatenated, prefixed, stream=True) == [
        "stream-concatenated vs length-prefixed frames"
    ]
    across = crosscheck.outcome("pb-vs-msgpack-test1", concatenated, prefixed, False, "$: 7")
    assert across.check == "across"
    real = crosscheck.outcome("pb-vs-msgpack-test1", concatenated, concatenated, False, "$.a")
    assert real.check == "NG" and real.conventions == "map-layout, stream-concatenated"
    single = crosscheck.outcome("android-users", concatenated, prefixed, False, "$[0].id")
    assert single.check == "NG" and single.conventions == "map-layout"
