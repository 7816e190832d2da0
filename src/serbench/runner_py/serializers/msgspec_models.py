"""msgspec Struct types per dataset, keyed (JSON objects) or positional (arrays).

The positional variant is the seed's MessagePack layout: a record is an array of its
fields in order, an enum its ordinal, and S2's Test3 a bare string.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any

import msgspec

from serbench.runner_py import positional
from serbench.runner_py.serializers.base import NotApplicable


class Gender(enum.IntEnum):
    Female = 0
    Male = 1


def _struct(name: str, fields: list[tuple[str, Any]], array_like: bool) -> type:
    return msgspec.defstruct(name, fields, array_like=array_like)


@cache
def root_type(dataset: str, array_like: bool) -> Any:
    """The type one message of the dataset decodes to."""
    s = _struct
    if dataset == "android-users":
        record = s(
            "SampleData",
            [("id", int), ("name", str), ("age", int), ("gender", Gender), ("isMegane", bool)],
            array_like,
        )
        return list[record]
    if dataset.startswith("pb-vs-msgpack-"):
        t1 = s("Test1", [("a", int), ("b", int)], array_like)
        t2 = s("Test2", [("a", int), ("b", int)], array_like)
        t3 = str if array_like else s("Test3", [("s", str)], array_like)
        t4 = s("Test4", [("t1", t1), ("t2", t2), ("t3", t3)], array_like)
        return {"test1": t1, "test2": t2, "test3": t3, "test4": t4}[dataset[-5:]]
    if dataset == "one-mb-dict":
        return dict[str, str]
    if dataset == "click-maps":
        viewport = s("Viewport", [("width", int), ("height", int)], array_like)
        click = s(
            "Click",
            [("x", int), ("y", int), ("count", int), ("lastClick", int), ("selector", str)],
            array_like,
        )
        return s(
            "ClickMap",
            [("url", str), ("day", str), ("viewport", viewport), ("clicks", dict[str, click])],
            array_like,
        )
    if dataset == "log-records":
        pair = s("Pair", [("key", str), ("value", str)], array_like)
        record = s(
            "TestClass",
            [
                ("MyProperty1", str),
                ("MyProperty2", int),
                ("MyProperty3", datetime),
                ("MyProperty4", bool),
                ("MyProperty5", list[pair]),
            ],
            array_like,
        )
        return list[record]
    raise NotApplicable(f"no msgspec types for dataset {dataset!r}")


def converters(dataset: str, array_like: bool) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """(native -> typed, typed -> native) for one dataset, both outside timing.

    Positional types are filled from the hand-written positional form (arrays in field
    order), since msgspec builds array-like Structs from arrays.
    """
    typed = root_type(dataset, array_like)
    pack, unpack = positional.converters(dataset) if array_like else (_same, _same)

    def prepare(message: Any) -> Any:
        return msgspec.convert(pack(message), typed)

    def to_native(value: Any) -> Any:
        return unpack(msgspec.to_builtins(value, builtin_types=(datetime,)))

    return prepare, to_native


def _same(value: Any) -> Any:
    return value
