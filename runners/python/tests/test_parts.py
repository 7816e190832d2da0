"""The runner's own parts: the strict comparison, the types language and stream framing."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from serbench_runner_python.framing import read_varint, split_frames, varint
from serbench_runner_python.tree import first_difference, format_path, native
from serbench_runner_python.typelang import Enum, ListOf, Optional, Record, identifier, parse_types


def test_comparison_is_strict_about_types() -> None:
    assert first_difference({"a": [1, True]}, {"a": [1, True]}) is None
    assert first_difference({"a": True}, {"a": 1}) == "$.a: 1 (int) != True (bool)"
    assert first_difference([{"s": "x"}], [{"s": b"x"}]) is not None
    assert "length 1 != 2" in first_difference([1, 2], [1])
    assert "keys differ" in first_difference({"a": 1, "b": 2}, {"a": 1})
    assert first_difference(math.nan, math.nan) is None
    assert first_difference(0.0, -0.0) == "$: -0.0 != 0.0"
    when = datetime(1999, 12, 12, tzinfo=UTC)
    assert first_difference(when, when.replace(tzinfo=None)) is not None


def test_paths_and_identifiers() -> None:
    assert format_path(["user", "name", 3, "a b", "[*]"]) == '$.user.name[3]["a b"][*]'
    assert identifier("1st-place") == "_1st_place"


def test_types_file_and_the_tree() -> None:
    doc = {
        "types": {
            "R": {"record": [["at", "timestamp_ms"], ["blob", "optional<bytes>"], ["e", "E"]]},
            "E": {"enum": ["a", "b"]},
        }
    }
    types = parse_types(doc, "list<R>")
    assert isinstance(types.message, ListOf) and isinstance(types.message.of, Record)
    rec = types.message.of
    assert isinstance(rec.fields[1][1], Optional) and isinstance(rec.fields[2][1], Enum)
    tree = native(types.message)([{"at": 1000, "blob": "AAE=", "e": 1}])
    assert tree == [{"at": datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), "blob": b"\0\1", "e": 1}]


@pytest.mark.parametrize("n", [0, 1, 127, 128, 300, 8195, 2**31])
def test_varints_round_trip(n: int) -> None:
    encoded = varint(n)
    assert read_varint(memoryview(encoded), 0) == (n, len(encoded))


def test_frames_split_back() -> None:
    buf = b"".join(varint(len(p)) + p for p in (b"", b"ab", b"x" * 200))
    assert [bytes(f) for f in split_frames(buf)] == [b"", b"ab", b"x" * 200]
