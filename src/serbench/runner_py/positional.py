"""Hand-written positional layouts compiled from a dataset's types.json.

The seed's MessagePack code wrote each record as an array of its fields in order and
an enum as its ordinal; S2's Test3 (the only single-field record) was a bare string.
These converters are built once per dataset as closures, so the per-message work
is what a hand-written ``toArray``/``fromArray`` pair would do.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from serbench.datasets import get
from serbench.paths import DATASETS_DIR

Convert = Callable[[Any], Any]


def _identity(value: Any) -> Any:
    return value


@cache
def type_description(dataset: str) -> tuple[Any, dict[str, Any]]:
    spec = get(dataset)
    doc = json.loads((DATASETS_DIR / spec.schema_dir / "types.json").read_text())
    message = doc["message"]
    if isinstance(message, dict):
        message = message[dataset]
    return message, doc["types"]


def _compile(type_name: str, types: dict[str, Any]) -> tuple[Convert, Convert]:
    if type_name.startswith("list<"):
        pack, unpack = _compile(type_name[5:-1], types)
        if pack is _identity:
            return _identity, _identity
        return (lambda v: [pack(x) for x in v]), (lambda v: [unpack(x) for x in v])
    if type_name.startswith("map<string,"):
        pack, unpack = _compile(type_name[11:-1], types)
        if pack is _identity:
            return _identity, _identity
        return (
            lambda v: {k: pack(x) for k, x in v.items()},
            lambda v: {k: unpack(x) for k, x in v.items()},
        )
    definition = types.get(type_name)
    if definition is None or "enum" in definition:
        return _identity, _identity  # primitives, timestamps and enum ordinals pass as they are
    fields = definition["record"]
    names = [name for name, _ in fields]
    convs = [_compile(t, types) for _, t in fields]
    if len(fields) == 1:
        (name,), ((pack1, unpack1),) = names, convs
        return (lambda v: pack1(v[name])), (lambda v: {name: unpack1(v)})
    if all(p is _identity for p, _ in convs):
        return (
            lambda v: [v[n] for n in names],
            lambda v: dict(zip(names, v, strict=True)),
        )
    packs = [(n, p) for n, (p, _) in zip(names, convs, strict=True)]
    unpacks = [(n, u) for n, (_, u) in zip(names, convs, strict=True)]
    return (
        lambda v: [p(v[n]) for n, p in packs],
        lambda v: {n: u(x) for (n, u), x in zip(unpacks, v, strict=True)},
    )


def converters(dataset: str) -> tuple[Convert, Convert]:
    """(native -> positional, positional -> native) for one message of the dataset."""
    message, types = type_description(dataset)
    return _compile(message, types)
