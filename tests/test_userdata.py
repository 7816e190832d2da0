"""User datasets (issue 8): reading, inference, --types, canonical files, schemas, the
registry and its cleanup after errors, and the Python runner's cells on them."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from serbench_runner_python.generate.build import build as build_models
from serbench_runner_python.generate.jobs import user_jobs
from serbench_runner_python.serve import Server

from serbench import orchestrate, userdata
from serbench.userdata import registry
from serbench.userdata.errors import UserDataError

FIX = Path(__file__).parent / "fixtures" / "userdata"


def _items(entry: userdata.Entry) -> dict[str, Any]:
    return json.loads(Path(entry.descriptor()["data"]).read_text())


def _types(entry: userdata.Entry) -> dict[str, Any]:
    return json.loads((entry.folder / entry.meta["types"]).read_text())


@pytest.fixture(autouse=True)
def python_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python runner's typed models go to the test's folder (runner processes too)."""
    monkeypatch.setenv("SERBENCH_PYTHON_MODEL_DIR", str(tmp_path / "python-models"))


def _build_models() -> None:
    """What `serbench datasets add` has the Python runner build: the typed model of every
    registered user dataset."""
    build_models(user_jobs(registry.registry_dir()), Path(os.environ["SERBENCH_PYTHON_MODEL_DIR"]))


def _prepare(entry: userdata.Entry, serializer: str, **extra: Any) -> dict[str, Any]:
    _build_models()
    wire = orchestrate.on_the_wire(entry.descriptor())
    wire.update(extra)
    cmd = {
        "cmd": "prepare",
        "cell": "c1",
        "serializer": serializer,
        "dataset": wire,
        "operations": ["encode", "decode"],
    }
    return Server().handle(cmd)


def _leftovers() -> list[str]:
    root = registry.registry_dir()
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


# ---- inference and canonical form ------------------------------------------------------


def test_jsonl_inference_and_canonical_edge_values(state: Path) -> None:
    entry = userdata.add("events", FIX / "events.jsonl")
    t = _types(entry)
    assert t["message"] == "Events"
    fields = dict(t["types"]["Events"]["record"])
    assert fields["id"] == "int64"  # 2^53 + 1 and negatives
    assert fields["big"] == "uint64"
    assert fields["score"] == "float64"
    assert fields["tags"] == "list<string>"
    assert fields["attrs"] == "map<string,int32>"  # an empty key and "b c": a map
    assert fields["child"] == "optional<Child>"  # null once, missing once
    doc = _items(entry)
    assert doc["framing"] == "stream" and doc["count"] == 3 and doc["scenario"] == "user"
    first, second, third = doc["items"]
    assert first["id"] == 9007199254740993  # exact beyond 2^53
    assert first["name"] == "café \u2028 \x00 \U0001f600"
    assert json.dumps(first["score"]) == "-0.0"
    assert second["score"] == "NaN"
    assert third["child"] is None  # a missing optional field is written as null
    raw = Path(entry.descriptor()["data"]).read_bytes()
    assert b'"score":-0.0' in raw and "\u2028".encode() in raw
    assert entry.meta["sha256"] == __import__("hashlib").sha256(raw).hexdigest()
    assert entry.meta["schemas"]["avsc"]["unavailable"].startswith("avro: $.big is uint64")
    assert "path" in entry.meta["schemas"]["proto"]
    assert (entry.folder / "events.pb").stat().st_size > 0


def test_csv_inference(state: Path) -> None:
    entry = userdata.add("people", FIX / "people.csv")
    fields = dict(_types(entry)["types"]["People"]["record"])
    assert fields == {
        "name": "string",
        "age": "optional<int32>",
        "height": "float64",
        "member": "bool",
        "zip": "string",  # leading zeros: kept as text
        "note": "string",
    }
    items = _items(entry)["items"]
    assert items[0] == {
        "name": "Doe, Jane",
        "age": 31,
        "height": 1.72,
        "member": True,
        "zip": "00501",
        "note": "",
    }
    assert items[1]["age"] is None and items[1]["note"] == 'said "hi"'
    assert items[2]["height"] == 2.0


def test_types_file_gives_native_types(state: Path) -> None:
    entry = userdata.add("typed", FIX / "typed.jsonl", types_file=FIX / "typed.types.json")
    items = _items(entry)["items"]
    assert items[0]["at"] == 1704164645123  # ISO-8601 -> epoch milliseconds
    assert items[0]["blob"] == "AAEC/w=="
    assert items[0]["level"] == 2 and items[1]["level"] == 0  # enum ordinals
    assert items[0]["ratio"] == 0.10000000149011612  # rounded to float32 once, for everyone
    avsc = json.loads((entry.folder / "typed.avsc").read_text())
    assert avsc["fields"][0]["type"] == {"type": "long", "logicalType": "timestamp-millis"}
    assert "enum Level" in (entry.folder / "typed.proto").read_text()
    for serializer in ("protobuf", "fastavro", "msgpack", "cbor2", "json", "bson", "pickle"):
        reply = _prepare(entry, serializer)
        assert reply["status"] == "ok", (serializer, reply)


def test_document_and_sample(state: Path, tmp_path: Path) -> None:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps({"rows": list(range(100)), "meta": {"n": 1}}))
    entry = userdata.add("doc", doc, sample=10)
    item = _items(entry)["items"][0]
    assert item["rows"] == [i * 10 for i in range(10)]  # evenly spaced, deterministic
    assert entry.meta["framing"] == "single"
    lines = tmp_path / "many.jsonl"
    lines.write_text("".join(json.dumps({"i": i}) + "\n" for i in range(1000)))
    entry = userdata.add("many", lines, sample=4)
    assert [x["i"] for x in _items(entry)["items"]] == [0, 250, 500, 750]
    entry = userdata.add("many-doc", lines, as_="document")
    assert _types(entry)["message"] == "list<ManyDoc>"
    assert len(_items(entry)["items"][0]) == 1000


# ---- bad input: message with file, line, column, path; nothing registered ----------------


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.jsonl", b'{"a": 1}\n{"a": [1, 2,]}\n', r"bad.jsonl:2:13: at $.a[2] malformed JSON"),
        (
            "dup.jsonl",
            b'{"a": 1}\n{"a": {"b": 1, "b": 2}}\n',
            r"dup.jsonl:2:16: at $.a.b duplicate key 'b'",
        ),
        ("dup.json", b'{\n  "x": 1,\n  "x": 2\n}', r"dup.json:3:3: at $.x duplicate key 'x'"),
        ("utf.jsonl", b'{"a": "ok"}\n{"a": "\xff"}\n', r"utf.jsonl:2:8: invalid UTF-8 (byte 0xff)"),
        (
            "rag.csv",
            b"a,b\n1,2\n3,4,5\n",
            r"rag.csv:3:3: at $ ragged row: 3 fields, the header has 2",
        ),
        ("short.csv", b"a,b\n1\n", r"short.csv:2:2: at $.b ragged row: 1 fields, the header has 2"),
        (
            "deep.json",
            b"[" * 70 + b"]" * 70,
            "deep.json:1:65: at $" + "[0]" * 64 + " nesting deeper",
        ),
        ("big.json", b'{"x": 1e999}', "big.json:1:7: at $.x number overflows a double"),
        ("sur.jsonl", b'{"a": ["\\ud800"]}\n', r"sur.jsonl:1:8: at $.a[0] a lone surrogate"),
    ],
)
def test_bad_input_is_located_and_leaves_nothing(
    state: Path, tmp_path: Path, name: str, content: bytes, expected: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(UserDataError) as info:
        userdata.add("bad", path)
    assert expected in str(info.value), str(info.value)
    assert str(tmp_path) in str(info.value)
    assert _leftovers() == []


def test_types_contradicting_the_data(state: Path, tmp_path: Path) -> None:
    data = tmp_path / "t.jsonl"
    data.write_text('{"n": 1, "s": "a"}\n{"n": 2,\n"s": "b"}\n'.replace(",\n", ", "))
    data.write_text('{"n": 1, "s": "a"}\n{"n": "two", "s": "b"}\n')
    types = tmp_path / "t.types.json"
    types.write_text(
        json.dumps({"message": "T", "types": {"T": {"record": [["n", "int32"], ["s", "string"]]}}})
    )
    with pytest.raises(UserDataError, match=r"t.jsonl:2:7: at \$.n string 'two' is not int32"):
        userdata.add("t", data, types_file=types)
    types.write_text(json.dumps({"message": "T", "types": {"T": {"record": [["n", "int32"]]}}}))
    with pytest.raises(
        UserDataError, match=r"t.jsonl:1:\d+: at \$.s key 's' is not a field of record T"
    ):
        userdata.add("t", data, types_file=types)
    types.write_text('{"message": "T", "types": {"T": {"record": [["n", "int33"]]}}}')
    with pytest.raises(UserDataError, match="unknown type 'int33'"):
        userdata.add("t", data, types_file=types)
    assert _leftovers() == []


def test_error_keeps_the_earlier_registration(state: Path, tmp_path: Path) -> None:
    good = tmp_path / "d.jsonl"
    good.write_text('{"a": 1}\n')
    first = userdata.add("d", good)
    good.write_text('{"a": 1}\n{"a": \n')
    with pytest.raises(UserDataError):
        userdata.add("d", good)
    assert userdata.get("d").meta["sha256"] == first.meta["sha256"]
    assert _leftovers() == ["d"]
    userdata.remove("d")
    assert userdata.names() == []


# ---- the Python runner on user data ----------------------------------------------------


def test_runner_cells_on_edge_values(state: Path) -> None:
    entry = userdata.add("events", FIX / "events.jsonl")
    status = {
        s: _prepare(entry, s)
        for s in (
            "json",
            "pickle",
            "cbor2",
            "msgpack",
            "orjson",
            "msgspec-json",
            "bson",
            "protobuf",
            "fastavro",
            "handwritten",
            "noop",
            "flexbuffers",
            "capnproto-dynamic",
        )
    }
    assert status["json"]["status"] == "ok"
    assert status["pickle"]["status"] == "ok"
    assert status["cbor2"]["status"] == "ok"
    assert status["msgpack"]["status"] == "ok"
    assert status["noop"]["status"] == "ok"
    # orjson writes NaN as null: a value lost by one library is NG with the path.
    assert status["orjson"]["status"] == "check_failed"
    assert status["orjson"]["check"]["detail"].startswith("message 1: $.score: None")
    assert status["msgspec-json"]["status"] == "check_failed"
    assert status["protobuf"]["status"] == "ok"  # NaN, -0.0, uint64, NUL: all carried
    assert status["fastavro"]["status"] == "not_applicable"
    assert "avro: $.big is uint64" in status["fastavro"]["error"]["message"]
    assert status["handwritten"]["status"] == "ok"  # generated from the types: all carried
    # FlexBuffers: uint64 through UInt, NaN and -0.0 as floats, NUL in a value (not a key)
    assert status["flexbuffers"]["status"] == "ok", status["flexbuffers"]
    # Cap'n Proto's Text cannot hold U+0000: the path of the first one
    assert status["capnproto-dynamic"]["error"]["message"] == (
        "capnproto: U+0000 at message 0 $.name in a string, which Text cannot hold"
    )


def test_values_a_format_cannot_carry(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "ids.json"
    path.write_text('{"ids": [1, 2, 3, 18446744073709551616]}')
    entry = userdata.add("ids", path)
    reply = _prepare(entry, "msgpack")
    assert reply["status"] == "not_applicable"
    assert reply["error"]["message"] == (
        "MessagePack: 18446744073709551616 at $.ids[3] exceeds uint64"
    )
    assert _prepare(entry, "cbor2")["status"] == "ok"  # CBOR has bignums
    assert "protobuf: $.ids" in _prepare(entry, "protobuf")["error"]["message"]
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]")
    reply = _prepare(userdata.add("list", listing), "bson")
    assert reply["error"]["message"] == "BSON: top-level value must be a document"


def test_orchestrator_plans_user_datasets(state: Path) -> None:
    userdata.add("people", FIX / "people.csv")
    config = orchestrate.RunConfig.for_scale("quick")
    config.datasets = ["people"]
    orchestrate.validate(config, {})
    with pytest.raises(Exception, match="user datasets: people"):
        config.datasets = ["nope"]
        orchestrate.validate(config, {})
    described = {"runner": "x", "capabilities": []}
    entry = orchestrate._applicability(described, {"name": "s", "datasets": {}}, "people")
    assert entry == {"applicable": False, "reason": "runner x does not take user datasets yet"}
    described["capabilities"] = ["user_datasets"]
    s = {"name": "s", "datasets": {}, "user_datasets": {"applicable": True}}
    assert orchestrate._applicability(described, s, "people") == {"applicable": True}
    d = orchestrate.descriptor("people", "quick")
    assert d["kind"] == "user" and Path(d["types"]).is_file() and "proto" in d["schemas"]


def test_cli_add_list_remove(state: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from serbench import builds
    from serbench.cli import app

    # registering rebuilds typed-model runners (tests/test_builds.py, on fake runners): the
    # real ones stay as the suite built them
    monkeypatch.setattr(builds, "typed_model", lambda names=None, specs=None: [])
    cli = CliRunner()
    result = cli.invoke(app, ["datasets", "add", "people", str(FIX / "people.csv")])
    assert result.exit_code == 0, result.output
    result = cli.invoke(app, ["datasets", "--scale", "quick"])
    assert "people" in result.output and "user" in result.output
    result = cli.invoke(app, ["datasets", "add", "bad", str(FIX / "nope.csv")])
    assert result.exit_code != 0
    result = cli.invoke(app, ["datasets", "remove", "people"])
    assert result.exit_code == 0 and userdata.names() == []
    shutil.rmtree(registry.registry_dir(), ignore_errors=True)


# ---- section 7: always-null positions, always-empty lists, missing fields ---------------


def test_null_and_empty_positions_map_to_schemas(state: Path, tmp_path: Path) -> None:
    entry = userdata.add("sparse", FIX / "sparse.jsonl")
    fields = dict(_types(entry)["types"]["Sparse"]["record"])
    assert fields["geo"] == "null"
    assert fields["symbols"] == "list<null>"
    assert fields["note"] == "optional<string>"  # null once, missing once
    assert fields["media"] == "optional<list<Media>>"  # missing from two records
    assert _items(entry)["items"][1]["media"] is None  # written as null where missing
    schemas = entry.meta["schemas"]
    # protobuf: a list cannot be null, and the reason says where and why
    assert schemas["proto"]["unavailable"] == (
        "protobuf: $.media is optional<list<Media>>: a protobuf repeated or map field "
        "cannot be null"
    )
    avsc = json.loads((entry.folder / "sparse.avsc").read_text())
    types = {f["name"]: f["type"] for f in avsc["fields"]}
    assert types["geo"] == "null"
    assert types["symbols"] == {"type": "array", "items": "null"}
    assert types["note"] == ["null", "string"]
    assert _prepare(entry, "fastavro")["status"] == "ok"
    # Cap'n Proto carries the optional list (a union of null and the list) and the nulls
    assert "media :union { null @" in (entry.folder / "sparse.capnp").read_text()
    for serializer in ("capnproto-dynamic", "flexbuffers"):
        reply = _prepare(entry, serializer)
        assert reply["status"] == "ok", (serializer, reply)
    # without the optional list, protobuf maps the nulls to a never-set optional bool
    # and the always-empty list to a repeated bool that stays empty
    path = tmp_path / "nolists.jsonl"
    lines = (FIX / "sparse.jsonl").read_text().splitlines()
    path.write_text("\n".join(ln.replace(', "media": [{"w": 1}]', "") for ln in lines) + "\n")
    entry = userdata.add("nolists", path)
    proto = (entry.folder / "nolists.proto").read_text()
    assert "optional bool geo = 2;" in proto
    assert "repeated bool symbols = 3;" in proto
    assert "Place place = 4;" in proto and "repeated bool tags = 2;" in proto
    assert "optional string note = 5;" in proto
    for serializer in ("protobuf", "fastavro", "json", "msgpack", "cbor2"):
        reply = _prepare(entry, serializer)
        assert reply["status"] == "ok", (serializer, reply)


def test_nulls_inside_a_list_are_not_applicable_for_protobuf(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "nulls.jsonl"
    path.write_text('{"a": [null, null]}\n{"a": []}\n')
    entry = userdata.add("nulls", path)
    assert dict(_types(entry)["types"]["Nulls"]["record"]) == {"a": "list<null>"}
    reply = _prepare(entry, "protobuf")
    assert reply["status"] == "not_applicable"
    assert reply["error"]["message"] == (
        "protobuf: $.a holds nulls in a list, which a repeated field cannot carry"
    )
    assert _prepare(entry, "fastavro")["status"] == "ok"  # Avro counts the nulls


def test_reasons_name_the_mixed_kinds(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        '{"tags": ["a", 1], "v": 1, "w": true}\n{"tags": [], "v": [1], "w": {"k": 1}}\n'
    )
    entry = userdata.add("mixed", path)
    schemas = entry.meta["schemas"]
    assert schemas["proto"]["unavailable"] == "protobuf: $.tags[*] mixes string and number"
    assert schemas["avsc"]["unavailable"] == "avro: $.tags[*] mixes string and number"
    fields = dict(_types(entry)["types"]["Mixed"]["record"])
    assert fields == {"tags": "list<any>", "v": "any", "w": "any"}
    from serbench.userdata.infer import mixed_kinds

    assert mixed_kinds(["bool", "list", "object"]) == "bool, array and object"
    assert mixed_kinds(["int", "float", "string"]) == "string and number"


# ---- cross-checks and the socket transport on user datasets ------------------------------


def test_crosscheck_and_transport_take_user_datasets(state: Path) -> None:
    import dataclasses

    from serbench import crosscheck, runners, transport

    userdata.add("events", FIX / "events.jsonl")
    _build_models()
    # a second "runner" (the Python runner under another name) to read the first's bytes
    other = dataclasses.replace(runners.PYTHON, name="py2")
    specs = {"python": runners.PYTHON, "py2": other}
    describe = runners.describe(runners.PYTHON)
    describes = {"python": describe, "py2": {**describe, "runner": "py2"}}
    (state / "xc").mkdir()
    outcomes = crosscheck.run(specs, describes, ["events"], "quick", state / "xc")
    by_pair = {(o.writer, o.reader): o for o in outcomes}
    assert by_pair[("python/msgpack", "py2/msgpack")].ok
    assert by_pair[("python/protobuf", "py2/protobuf")].ok  # a dynamic message both ways
    assert not any(o.writer.endswith("/fastavro") for o in outcomes)  # uint64: no Avro
    assert all(o.dataset == "events" for o in outcomes)
    side = transport.Side("python", "cbor2")
    result = transport.transfer(side, side, specs, "events", "quick", 2, 1)
    assert result["receive"]["check"]["ok"] is True, result["receive"]["check"]
    bad = transport.Side("python", "fastavro")
    with pytest.raises(transport.NotApplicable, match="avro: \\$.big is uint64"):
        transport.transfer(bad, bad, specs, "events", "quick", 2, 0, timeout=30)


# ---- one read of a stream ---------------------------------------------------------------


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from serbench.userdata import reader

    reads: list[int] = []
    real_jsonl, real_csv = reader.iter_jsonl, reader.iter_csv

    def jsonl(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return real_jsonl(*args, **kwargs)

    def csv(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return real_csv(*args, **kwargs)

    monkeypatch.setattr(reader, "iter_jsonl", jsonl)
    monkeypatch.setattr(reader, "iter_csv", csv)
    return reads


def test_streams_are_read_once_unless_the_types_change_values(
    state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _count_reads(monkeypatch)
    path = tmp_path / "uniform.jsonl"
    path.write_text(
        '{"b": 1, "a": 2.5, "s": "x", "n": null, "l": [1, 2], "f": NaN, "o": {"k": true}}\n'
        '{"b": 2, "a": 1e3, "s": "y", "n": null, "l": [], "f": -0.0, "o": {"k": false}}\n'
    )
    entry = userdata.add("uniform", path)
    assert len(reads) == 1
    items = _items(entry)["items"]
    assert items[0] == {
        "b": 1,
        "a": 2.5,
        "s": "x",
        "n": None,
        "l": [1, 2],
        "f": "NaN",
        "o": {"k": True},
    }
    assert items[1]["a"] == 1000.0 and json.dumps(items[1]["f"]) == "-0.0"
    assert entry.meta["count"] == 2 and _items(entry)["count"] == 2
    raw = Path(entry.descriptor()["data"]).read_bytes()
    assert entry.meta["sha256"] == __import__("hashlib").sha256(raw).hexdigest()
    assert entry.meta["bytes"] == len(raw)
    assert entry.meta["source_sha256"] == userdata.file_sha256(path)  # hashed as read
    # a field missing from one record: written as null, still in one read
    reads.clear()
    entry = userdata.add("events", FIX / "events.jsonl")
    assert len(reads) == 1 and _items(entry)["items"][2]["child"] is None
    assert entry.meta["source_sha256"] == userdata.file_sha256(FIX / "events.jsonl")
    # integers beside floats become floats: a second read
    reads.clear()
    path.write_text('{"x": 1}\n{"x": 1.5}\n')
    entry = userdata.add("mixednum", path)
    assert len(reads) == 2
    assert [json.dumps(i["x"]) for i in _items(entry)["items"]] == ["1.0", "1.5"]
    # --as document and CSV
    reads.clear()
    entry = userdata.add("doc", FIX / "events.jsonl", as_="document")
    assert _items(entry)["count"] == 1 and len(_items(entry)["items"][0]) == 3
    reads.clear()
    csv = tmp_path / "t.csv"
    csv.write_text("a,b,c\n1,x,1.5\n2,y,NaN\n")
    entry = userdata.add("t", csv)
    assert len(reads) == 1
    assert _items(entry)["items"] == [
        {"a": 1, "b": "x", "c": 1.5},
        {"a": 2, "b": "y", "c": "NaN"},
    ]
    csv.write_text("a,b\n1,x\n,2\n")  # b: text beside a number stays text
    reads.clear()
    entry = userdata.add("t", csv)
    assert len(reads) == 2
    assert _items(entry)["items"] == [{"a": 1, "b": "x"}, {"a": None, "b": "2"}]
    csv.write_text("a\n1\n1e999\n")
    with pytest.raises(UserDataError, match=r"t.csv:3:1: at \$.a number overflows a double"):
        userdata.add("t", csv)


def test_any_field_missing_from_some_records(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "anymiss.jsonl"
    path.write_text('{"v": 1, "w": "a"}\n{"v": "x"}\n')
    entry = userdata.add("anymiss", path)
    assert dict(_types(entry)["types"]["Anymiss"]["record"])["v"] == "any"
    assert _items(entry)["items"][1] == {"v": "x", "w": None}


def test_missing_fields_are_filled_in_one_read(
    state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _count_reads(monkeypatch)
    path = tmp_path / "late.jsonl"
    # "b" first appears in the third record, "c" inside a nested record of the fourth
    path.write_text(
        '{"a": 1, "o": {"x": 1}}\n{"a": 2, "o": {"x": 2}}\n{"a": 3, "b": "s", "o": {"x": 3}}\n'
        '{"a": 4, "o": {"x": 4, "c": true}}\n{"a": 5, "b": "t", "o": {"x": 5}}\n'
    )
    entry = userdata.add("late", path)
    assert len(reads) == 1
    fields = dict(_types(entry)["types"]["Late"]["record"])
    assert fields == {"a": "int32", "o": "O", "b": "optional<string>"}
    assert [sorted(i.items()) for i in _items(entry)["items"]] == [
        sorted({"a": a, "b": b, "o": {"x": a, "c": c}}.items())
        for a, b, c in ((1, None, None), (2, None, None), (3, "s", None), (4, None, True))
    ] + [sorted({"a": 5, "b": "t", "o": {"x": 5, "c": None}}.items())]
    raw = Path(entry.descriptor()["data"]).read_bytes()
    assert entry.meta["sha256"] == __import__("hashlib").sha256(raw).hexdigest()
    for serializer in ("protobuf", "fastavro", "msgpack"):
        assert _prepare(entry, serializer)["status"] == "ok", serializer
    # the same as one document: one list
    reads.clear()
    entry = userdata.add("latedoc", path, as_="document")
    assert len(reads) == 1
    (doc,) = _items(entry)["items"]
    assert [r["b"] for r in doc] == [None, None, "s", None, "t"]
    # objects that turn out to be a map (too many keys) get no filled-in nulls: second read
    reads.clear()
    wide = {f"k{i}": i for i in range(70)}
    path.write_text(
        json.dumps({"m": {"k0": 0, "k1": 1}})
        + "\n"
        + json.dumps({"m": {"k0": 0}})
        + "\n"
        + json.dumps({"m": wide})
        + "\n"
    )
    entry = userdata.add("wide", path)
    assert len(reads) == 2
    assert dict(_types(entry)["types"]["Wide"]["record"]) == {"m": "map<string,int32>"}
    assert _items(entry)["items"][1] == {"m": {"k0": 0}}


def test_lists_of_optional_values_have_no_schema(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "holes.json"
    path.write_text('{"xs": [1, null, 3]}')
    entry = userdata.add("holes", path)
    schemas = entry.meta["schemas"]
    assert schemas["avsc"]["unavailable"] == (
        "avro: $.xs[*] is optional<int32> inside a list (not mapped)"
    )
    assert schemas["proto"]["unavailable"].startswith("protobuf: $.xs[*] is optional<int32>")
    assert _prepare(entry, "msgpack")["status"] == "ok"


def test_capnp_schema_follows_the_mapping(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "capn.jsonl"
    rows = [
        {"user_id": 1, "geo": None, "tags": [], "attrs": {"a": 1.5}, "note": "x", "kind": "a"},
        {"user_id": 2, "geo": None, "tags": [], "attrs": {}, "note": None, "kind": "b"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    types = tmp_path / "capn.types.json"
    types.write_text(
        json.dumps(
            {
                "message": "Capn",
                "types": {
                    "Kind": {"enum": ["a", "b"]},
                    "Capn": {
                        "record": [
                            ["user_id", "int64"],
                            ["geo", "null"],
                            ["tags", "list<null>"],
                            ["attrs", "map<string,float64>"],
                            ["note", "optional<string>"],
                            ["kind", "Kind"],
                        ]
                    },
                },
            }
        )
    )
    entry = userdata.add("capn", path, types_file=types)
    schema = entry.descriptor()["schemas"]["capnp"]
    assert schema["struct"] == "Capn", schema
    text = Path(schema["path"]).read_text()
    assert text.startswith("@0x")
    for line in (
        "userId @0 :Int64;",  # no underscores in Cap'n Proto names
        "geo @1 :Void;",
        "tags @2 :List(Void);",
        "attrs @3 :List(Entry0);",
        "note :union { null @4 :Void; value @5 :Text; }",
        "kind @6 :Kind;",
        "struct Entry0 {\n  key @0 :Text;\n  value @1 :Float64;\n}",
        "enum Kind {\n  a @0;\n  b @1;\n}",
    ):
        assert line in text, (line, text)
    # the Python runner's dynamic row carries all of it: map entries, enum, Void, the union
    reply = _prepare(entry, "capnproto-dynamic")
    assert reply["status"] == "ok", reply
    if shutil.which("capnp"):  # the C++ runner's set-up installs the compiler
        import subprocess

        subprocess.run(["capnp", "compile", "-o-", schema["path"]], check=True, capture_output=True)


def test_capnp_wraps_a_top_level_list_and_refuses_nested_lists(state: Path, tmp_path: Path) -> None:
    path = tmp_path / "top.json"
    path.write_text("[1, 2, 3]")
    schema = userdata.add("top", path).descriptor()["schemas"]["capnp"]
    assert "struct Root {\n  value @0 :List(Int32);\n}" in Path(schema["path"]).read_text()
    path = tmp_path / "nested.json"
    path.write_text('{"m": [[1], [2]]}')
    schema = userdata.add("nested", path).descriptor()["schemas"]["capnp"]
    assert schema == {
        "unavailable": "capnproto: $.m is list<list<int32>>: nested lists are not mapped"
    }
