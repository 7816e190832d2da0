"""The Python runner's own parts: the strict comparison, layouts and framing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from serbench.runner_py import positional
from serbench.runner_py.framing import read_varint, split_frames, varint
from serbench.runner_py.model import first_difference


def test_comparison_is_strict_about_types() -> None:
    assert first_difference({"a": [1, True]}, {"a": [1, True]}) is None
    assert first_difference({"a": True}, {"a": 1}) == ".a: 1 != True"
    assert first_difference([{"s": "x"}], [{"s": b"x"}]) is not None
    assert "length 1 != 2" in first_difference([1, 2], [1])
    assert "keys differ" in first_difference({"a": 1, "b": 2}, {"a": 1})
    when = datetime(1999, 12, 12, tzinfo=UTC)
    assert first_difference(when, when.replace(tzinfo=None)) is not None


@pytest.mark.parametrize("n", [0, 1, 127, 128, 300, 8195, 2**31])
def test_varints_round_trip(n: int) -> None:
    encoded = varint(n)
    assert read_varint(memoryview(encoded), 0) == (n, len(encoded))


def test_frames_split_back() -> None:
    buf = b"".join(varint(len(p)) + p for p in (b"", b"ab", b"x" * 200))
    assert [bytes(f) for f in split_frames(buf)] == [b"", b"ab", b"x" * 200]


def test_positional_layout_is_the_seeds() -> None:
    pack, unpack = positional.converters("android-users")
    rec = {"id": 3, "name": "user 3", "age": 7, "gender": 1, "isMegane": False}
    assert pack([rec]) == [[3, "user 3", 7, 1, False]]
    assert unpack(pack([rec])) == [rec]
    pack4, unpack4 = positional.converters("pb-vs-msgpack-test4")
    msg = {"t1": {"a": 1, "b": 2}, "t2": {"a": -1, "b": -2}, "t3": {"s": "aa"}}
    assert pack4(msg) == [[1, 2], [-1, -2], "aa"]  # Test3 is a bare string
    assert unpack4(pack4(msg)) == msg
