"""FlexBuffers (FlatBuffers' schemaless sibling) on the generic value tree of user datasets.

The library's ``Dumps`` writes every Python int as a signed Int, so values above int64 go
through the Builder as UInt; date-times are written as epoch milliseconds and revived
through the types after decoding, like every schemaless format without a date-time type.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer
from serbench_runner_python.tree import EPOCH, find, native

_MS = timedelta(milliseconds=1)


def _add(b: Any, v: Any) -> None:  # noqa: C901 - one branch per kind of value
    if v is None:
        b.Null()
    elif isinstance(v, bool):
        b.Bool(v)
    elif isinstance(v, int):
        b.UInt(v) if v >= 2**63 else b.Int(v)
    elif isinstance(v, float):
        b.Float(v)
    elif isinstance(v, str):
        b.String(v)
    elif isinstance(v, (bytes, bytearray, memoryview)):
        b.Blob(bytes(v))
    elif isinstance(v, datetime):
        b.Int((v - EPOCH) // _MS)
    elif isinstance(v, dict):
        with b.Map():
            for k, x in v.items():
                b.Key(k)
                _add(b, x)
    else:
        with b.Vector():
            for x in v:
                _add(b, x)


class Flexbuffers(Serializer):
    name = "flexbuffers"
    format = "flexbuffers"
    distribution = "flatbuffers"
    labels = ("binary", "schemaless", "map-layout", "copying-decode", "enum-as-ordinal")

    def codec(self, dataset: Dataset) -> Codec:
        if dataset.kind == "builtin":
            raise NotApplicable(
                "flexbuffers: the Python runner writes FlexBuffers for user datasets only (the "
                "built-in datasets' FlexBuffers rows are in the C++, Rust, Java and Node runners)"
            )
        from flatbuffers import flexbuffers

        revive = native(dataset.types.message)

        def encode(tree: Any) -> bytes:
            b = flexbuffers.Builder()
            _add(b, tree)
            return bytes(b.Finish())

        def decode(data: Any) -> Any:
            return revive(flexbuffers.Loads(bytes(data)))

        return Codec(encode=encode, decode=decode, limits=_limits, fmt="flexbuffers")


def _limits(tree: Any) -> tuple[str, str] | None:
    def test(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and not -(2**63) <= v < 2**64:
            return f"{v} exceeds 64 bits"
        return None

    def key(k: str) -> str | None:
        return "key with NUL" if "\x00" in k else None

    return find(tree, test, keys=key)
