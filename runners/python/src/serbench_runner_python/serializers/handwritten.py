"""A hand-written struct-based writer/reader for S1 and S2: the Parcelable stand-in,
written by hand on purpose (the baseline a generated model is compared with).

Little-endian, fixed-width integers, strings as uint16/uint32 length + UTF-8.
"""

from __future__ import annotations

import struct
from typing import Any

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer

_COUNT = struct.Struct("<i")
_USER_HEAD = struct.Struct("<qH")
_USER_TAIL = struct.Struct("<iBB")
_PAIR_U = struct.Struct("<II")
_PAIR_I = struct.Struct("<ii")
_LEN = struct.Struct("<I")


def _users_encode(records: list[dict[str, Any]]) -> bytes:
    out = bytearray(_COUNT.pack(len(records)))
    for r in records:
        name = r["name"].encode()
        out += _USER_HEAD.pack(r["id"], len(name))
        out += name
        out += _USER_TAIL.pack(r["age"], r["gender"], r["isMegane"])
    return bytes(out)


def _users_decode(data: Any) -> list[dict[str, Any]]:
    view = memoryview(data)
    (n,) = _COUNT.unpack_from(view, 0)
    pos, records = _COUNT.size, []
    for _ in range(n):
        rid, length = _USER_HEAD.unpack_from(view, pos)
        pos += _USER_HEAD.size
        name = str(view[pos : pos + length], "utf-8")
        pos += length
        age, gender, megane = _USER_TAIL.unpack_from(view, pos)
        pos += _USER_TAIL.size
        records.append(
            {"id": rid, "name": name, "age": age, "gender": gender, "isMegane": megane == 1}
        )
    return records


def _pair_codec(layout: struct.Struct) -> Codec:
    def decode(data: Any) -> dict[str, int]:
        a, b = layout.unpack(data)
        return {"a": a, "b": b}

    return Codec(encode=lambda m: layout.pack(m["a"], m["b"]), decode=decode)


def _test3_encode(m: dict[str, str]) -> bytes:
    s = m["s"].encode()
    return _LEN.pack(len(s)) + s


def _test3_decode(data: Any) -> dict[str, str]:
    (n,) = _LEN.unpack_from(data, 0)
    return {"s": str(memoryview(data)[4 : 4 + n], "utf-8")}


def _test4_encode(m: dict[str, Any]) -> bytes:
    t1, t2 = m["t1"], m["t2"]
    return _PAIR_U.pack(t1["a"], t1["b"]) + _PAIR_I.pack(t2["a"], t2["b"]) + _test3_encode(m["t3"])


def _test4_decode(data: Any) -> dict[str, Any]:
    a1, b1 = _PAIR_U.unpack_from(data, 0)
    a2, b2 = _PAIR_I.unpack_from(data, 8)
    return {"t1": {"a": a1, "b": b1}, "t2": {"a": a2, "b": b2}, "t3": _test3_decode(data[16:])}


class Handwritten(Serializer):
    name = "handwritten"
    format = "custom-binary"
    labels = ("binary", "handwritten", "copying-decode")
    no_user_data = (
        "handwritten: the hand-written encoders exist only for the built-in datasets' classes"
    )

    def codec(self, dataset: Dataset) -> Codec:
        codecs = {
            "android-users": lambda: Codec(encode=_users_encode, decode=_users_decode),
            "pb-vs-msgpack-test1": lambda: _pair_codec(_PAIR_U),
            "pb-vs-msgpack-test2": lambda: _pair_codec(_PAIR_I),
            "pb-vs-msgpack-test3": lambda: Codec(encode=_test3_encode, decode=_test3_decode),
            "pb-vs-msgpack-test4": lambda: Codec(encode=_test4_encode, decode=_test4_decode),
        }
        if dataset.kind == "user":
            raise NotApplicable(self.no_user_data)
        if dataset.name not in codecs:
            raise NotApplicable(
                "hand-written layouts exist for S1 and S2 only (the seed's Parcelable stand-in)"
            )
        return codecs[dataset.name]()
