"""Real decoders on known hostile inputs (docs/runner-protocol.md section 11): each
outcome below is what the library does today, so a change in one shows up here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import runner_or_skip
from typer.testing import CliRunner

from serbench import runners
from serbench.cli import app
from serbench.untrusted import avro_interop
from serbench.untrusted.driver import Driver
from serbench.untrusted.run import dataset_object
from serbench.untrusted.suites import SUITES_DIR

JSON_BOMB = b"[" * 100_000  # 100,000 nested arrays, never closed
STR32_4GIB = bytes.fromhex("db ff ff ff ff 61")  # a MessagePack str32 claiming 4 GiB
ARRAY32_4G = bytes.fromhex("dd ff ff ff ff")  # an array32 claiming 2^32-1 elements
TRUNCATED_VARINT = b"\x08\x80"  # field 1, a varint whose continuation byte never comes
N_FILES = SUITES_DIR / "jsontestsuite" / "test_parsing"

# runner: (serializer, dataset or None, input, expected class, a word of the detail)
KNOWN = {
    "python": [
        ("json", None, JSON_BOMB, "error", "RecursionError"),
        ("orjson", None, JSON_BOMB, "rejected", "depth limit"),
        ("msgpack", None, STR32_4GIB, "rejected", "incomplete"),
        ("protobuf", "android-users", TRUNCATED_VARINT, "rejected", "DecodeError"),
        ("json", None, (N_FILES / "n_number_NaN.json").read_bytes(), "accepted", ""),
    ],
    "go": [
        ("json-dynamic", None, JSON_BOMB, "rejected", "max depth"),
        ("msgpack-dynamic", None, STR32_4GIB, "rejected", "EOF"),
        ("msgpack-dynamic", None, ARRAY32_4G, "excessive_allocation", "out of memory"),
        ("protobuf", "android-users", TRUNCATED_VARINT, "rejected", "proto"),
        (
            "jsoniter-dynamic",
            None,
            (N_FILES / "n_multidigit_number_then_00.json").read_bytes(),
            "accepted",
            "",
        ),
    ],
    "rust": [
        ("serde_json-dynamic", None, JSON_BOMB, "rejected", "recursion"),
        ("rmp-serde-dynamic", None, STR32_4GIB, "rejected", ""),
        ("prost", "android-users", TRUNCATED_VARINT, "rejected", "cannot decode"),
    ],
    "cpp": [
        ("nlohmann-json", None, JSON_BOMB, "rejected", "parse_error"),
        ("simdjson-dom", None, JSON_BOMB, "rejected", "improper structure"),
        ("msgpack", None, STR32_4GIB, "rejected", "insufficient"),
        ("msgpack", None, ARRAY32_4G, "excessive_allocation", "out of memory"),
        ("protobuf", "android-users", TRUNCATED_VARINT, "rejected", "parse failed"),
        (
            "nlohmann-json",
            None,
            (N_FILES / "n_multidigit_number_then_00.json").read_bytes(),
            "accepted",
            "",
        ),
    ],
    "dotnet": [
        ("json.net", None, JSON_BOMB, "rejected", "Unexpected end of content"),
        ("json.net-bson", None, bytes.fromhex("08 00 00 00 7e 61 00 00"), "error", "BsonType"),
        ("handwritten", "android-users", TRUNCATED_VARINT, "rejected", "EndOfStreamException"),
        ("handwritten", "android-users", STR32_4GIB, "error", "ArgumentOutOfRangeException"),
        ("json.net", None, (N_FILES / "n_number_NaN.json").read_bytes(), "accepted", ""),
    ],
    "java": [
        ("jackson-json-dynamic", None, JSON_BOMB, "rejected", "nesting depth"),
        ("msgpack-core", None, STR32_4GIB, "rejected", "MessageSizeException"),
        ("msgpack-core", None, b"\x91" * 100_000, "error", "StackOverflowError"),
        ("msgpack-core", None, bytes.fromhex("dd 0f ff ff ff"), "excessive_allocation", "heap"),
        ("protobuf", "android-users", TRUNCATED_VARINT, "rejected", "InvalidProtocolBuffer"),
        (
            "jackson-json-dynamic",
            None,
            (N_FILES / "n_array_comma_after_close.json").read_bytes(),
            "accepted",
            "",
        ),
    ],
    "node": [
        ("json", None, JSON_BOMB, "rejected", "SyntaxError"),
        ("msgpack-js", None, STR32_4GIB, "rejected", "Insufficient data"),
        ("msgpackr", None, STR32_4GIB, "rejected", "Unexpected end"),
        ("msgpackr", None, b"\x91" * 100_000, "error", "Maximum call stack"),
        ("protobufjs", "android-users", TRUNCATED_VARINT, "rejected", "index out of range"),
    ],
    "objc": [
        ("nsjsonserialization", None, JSON_BOMB, "crash", "signal 11"),
        ("msgpack-c", None, STR32_4GIB, "rejected", "MSGPACK_UNPACK_CONTINUE"),
        ("msgpack-c", None, ARRAY32_4G, "rejected", "MSGPACK_UNPACK_NOMEM_ERROR"),
        ("handwritten", "android-users", TRUNCATED_VARINT, "rejected", "truncated"),
        (
            "nsjsonserialization",
            None,
            (N_FILES / "n_array_extra_comma.json").read_bytes(),
            "accepted",
            "",
        ),
        (
            "plist-binary",  # the bplist of pb-vs-msgpack-test2 cut before its trailer
            None,
            bytes.fromhex(
                "62706c6973743030d2010203045162516113" + "ff" * 7 + "fe13" + "ff" * 8 + "080d0f"
            ),
            "error",
            "NSGenericException",
        ),
    ],
}


@pytest.mark.parametrize("runner", sorted(KNOWN))
def test_known_hostile_inputs(runner: str) -> None:
    spec = runner_or_skip(runner)
    if "untrusted" not in runners.describe(spec)["capabilities"]:
        pytest.skip(f"{runner} runner built without protocol 2.1 (run `serbench build`)")
    driver = Driver(spec, deadline_s=10.0)
    try:
        for serializer, dataset, data, kind, word in KNOWN[runner]:
            got = {}
            ds = dataset_object(dataset) if dataset else None
            driver.decode(serializer, ds, [("x", data)], got.update)
            outcome = got["x"]
            assert outcome.kind == kind, (serializer, outcome)
            assert word.lower() in (outcome.error or "").lower(), (serializer, outcome)
    finally:
        driver.close()


def test_conformance_command_replays_one_case(tmp_path: Path) -> None:
    """The replay command a failure prints runs that case alone, stores and reports it."""
    runner_or_skip("python")
    out = tmp_path / "report.json"
    db = tmp_path / "results.sqlite"
    args = ["conformance", "-r", "python", "-s", "json", "--case", "n_number_NaN"]
    result = CliRunner().invoke(app, [*args, "--json", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(out.read_text())["results"]
    assert row["counts"] == {"should_have_rejected": 1}
    assert row["failures"][0]["replay"].endswith("--case n_number_NaN")


def test_avro_interop_across_runners(tmp_path: Path) -> None:
    """Avro's interop test: every Avro row of every runner that declares `avro_container`
    writes interop.avsc's records with each codec, and every one reads every file back
    as the datum; each exception below is a library's known behaviour today."""
    out = tmp_path / "report.json"
    args = ["conformance", "--case", avro_interop.SUITE, "--json", str(out)]
    result = CliRunner().invoke(app, [*args, "--db", str(tmp_path / "results.sqlite")])
    assert result.exit_code == 0, result.output
    rows = [r for r in json.loads(out.read_text())["results"] if not r["skipped"]]
    writers = {r["runner"] + "/" + r["serializer"] for r in rows}
    if len({w.split("/")[0] for w in writers}) < 2:
        pytest.skip("fewer than two runners with Avro container files are built here")
    files = {f"{w} {codec}" for w in writers for codec in avro_interop.CODECS}
    for row in rows:
        reader = f"{row['runner']}/{row['serializer']}"
        assert set(row["interop"]) == files, reader
        wrong = {f: c for f, c in row["interop"].items() if c != "passed"}
        assert wrong == KNOWN_INTEROP.get(reader, {}), (reader, row["failures"][:3])


# reader: {file: class} where a library does not read another's file as the datum
KNOWN_INTEROP: dict[str, dict[str, str]] = {}
