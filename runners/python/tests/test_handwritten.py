"""The handwritten layout the build generates: its bytes, round trips of every type, and
decode rejecting truncated input and trailing bytes."""

from __future__ import annotations

import struct
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

import pytest

from serbench_runner_python.generate.handwritten import HandwrittenEmitter
from serbench_runner_python.typelang import parse_types

EVERY = {
    "Every": {
        "record": [
            ["i", "int32"],
            ["u", "uint32"],
            ["l", "int64"],
            ["ul", "uint64"],
            ["big", "bigint"],
            ["f", "float32"],
            ["d", "float64"],
            ["ok", "bool"],
            ["s", "string"],
            ["b", "bytes"],
            ["at", "timestamp_ms"],
            ["nothing", "null"],
            ["level", "Level"],
            ["wide", "Wide"],
            ["maybe", "optional<Inner>"],
            ["none", "optional<null>"],
            ["ints", "list<int32>"],
            ["times", "list<timestamp_ms>"],
            ["nulls", "list<null>"],
            ["inners", "list<Inner>"],
            ["by", "map<string,optional<int64>>"],
            ["class", "string"],
        ]
    },
    "Inner": {"record": [["x", "float64"], ["tags", "list<string>"]]},
    "Level": {"enum": ["low", "high"]},
    "Wide": {"enum": [f"s{i}" for i in range(300)]},
}
VALUE = {
    "i": -(2**31),
    "u": 2**32 - 1,
    "l": -(2**63),
    "ul": 2**64 - 1,
    "big": -(10**40),
    "f": 1.5,
    "d": -0.0,
    "ok": True,
    "s": "é\x00☃",
    "b": b"\x00\xff",
    "at": datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=UTC),
    "nothing": None,
    "level": 1,
    "wide": 299,
    "maybe": {"x": float("inf"), "tags": ["a", ""]},
    "none": None,
    "ints": [1, -2, 3],
    "times": [datetime(2020, 1, 2, tzinfo=UTC)],
    "nulls": [None, None],
    "inners": [{"x": 0.5, "tags": []}, {"x": 2.0, "tags": ["z"]}],
    "by": {"a": 1, "": None},
    "class": "keyword",
}


def generated(types: dict[str, Any], message: str, string_code: str = "I") -> ModuleType:
    source = HandwrittenEmitter(string_code).root(parse_types({"types": types}, message).message)
    module = ModuleType("hw_test")
    exec(compile(source, "hw_test", "exec"), module.__dict__)  # noqa: S102 - the build's output
    return module


def test_every_type_round_trips_and_rejects_cut_or_padded_input() -> None:
    hw = generated(EVERY, "Every")
    data = hw.hw_encode(VALUE)
    assert hw.hw_decode(data) == VALUE
    assert hw.hw_decode(memoryview(data)) == VALUE  # stream frames arrive as views
    for end in range(len(data)):
        with pytest.raises((ValueError, struct.error)):
            hw.hw_decode(data[:end])
    with pytest.raises(ValueError, match="1 trailing bytes"):
        hw.hw_decode(data + b"\x00")


def test_the_bytes_of_a_record() -> None:
    types = {
        "User": {"record": [["id", "int64"], ["name", "string"], ["g", "G"], ["on", "bool"]]},
        "G": {"enum": ["a", "b"]},
    }
    users = [{"id": 7, "name": "ab", "g": 1, "on": True}]
    want = struct.pack("<IqH", 1, 7, 2) + b"ab" + struct.pack("<BB", 1, 1)
    assert generated(types, "list<User>", "H").hw_encode(users) == want  # the S1 seed's
    want = struct.pack("<IqI", 1, 7, 2) + b"ab" + struct.pack("<BB", 1, 1)
    assert generated(types, "list<User>").hw_encode(users) == want
    pair = generated({"P": {"record": [["a", "uint32"], ["b", "int32"]]}}, "P")
    assert pair.hw_encode({"a": 1, "b": -1}) == struct.pack("<Ii", 1, -1)
    with pytest.raises(struct.error):
        pair.hw_decode(struct.pack("<Ii", 1, -1) + b"\x00")


def test_a_record_that_contains_itself() -> None:
    types = {"Node": {"record": [["v", "int32"], ["next", "optional<Node>"]]}}
    hw = generated(types, "list<Node>")
    value = [{"v": 1, "next": {"v": 2, "next": None}}, {"v": 3, "next": None}]
    data = hw.hw_encode(value)
    assert len(data) == 4 + 5 + 5 + 5
    assert hw.hw_decode(data) == value


def test_any_is_not_applicable_with_its_path() -> None:
    types = {"R": {"record": [["ok", "int32"], ["extra", "map<string,list<any>>"]]}}
    hw = generated(types, "list<R>")
    assert hw.HW_WHY == (
        "handwritten: $[*].extra.*[*] is any: a field-by-field layout needs its type"
    )


def test_out_of_range_is_a_value_error() -> None:
    hw = generated({"P": {"record": [["a", "uint32"]]}}, "P")
    with pytest.raises(ValueError):
        hw.hw_encode({"a": -1})


def test_deep_nesting_compiles() -> None:
    # Python limits a function's nested loops: deep records are written by functions
    types = {f"R{i}": {"record": [["v", "int32"], ["next", f"list<R{i + 1}>"]]} for i in range(30)}
    types["R30"] = {"record": [["v", "int32"]]}
    value: dict[str, Any] = {"v": 30}
    for i in reversed(range(30)):
        value = {"v": i, "next": [value]}
    hw = generated(types, "R0")
    assert hw.hw_decode(hw.hw_encode(value)) == value
