"""The types language (datasets/README.md and protocol section 7) as a tree of types."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PRIMITIVES = frozenset(
    {
        "null",
        "bool",
        "int32",
        "uint32",
        "int64",
        "uint64",
        "bigint",
        "float32",
        "float64",
        "string",
        "bytes",
        "timestamp_ms",
        "any",
    }
)


@dataclass(frozen=True)
class Prim:
    name: str


@dataclass(frozen=True)
class ListOf:
    of: Type


@dataclass(frozen=True)
class MapOf:
    of: Type


@dataclass(frozen=True)
class Optional:
    of: Type


@dataclass(eq=False)
class Enum:
    name: str
    symbols: list[str]


@dataclass(eq=False)
class Record:
    name: str
    fields: list[tuple[str, Type]] = field(default_factory=list)


Type = Prim | ListOf | MapOf | Optional | Enum | Record
NULL = Prim("null")


@dataclass
class Types:
    message: Type
    named: dict[str, Enum | Record]


def _parse(text: str, named: dict[str, Enum | Record]) -> Type:
    t = text.replace(" ", "")
    for prefix, wrap in (("list<", ListOf), ("map<string,", MapOf), ("optional<", Optional)):
        if t.startswith(prefix) and t.endswith(">"):
            return wrap(_parse(t[len(prefix) : -1], named))
    if t in PRIMITIVES:
        return Prim(t)
    if t in named:
        return named[t]
    raise ValueError(f"unknown type {text!r} in the types file")


def parse_types(doc: dict[str, Any], message: str) -> Types:
    """A types.json document -> Types; ``message`` is the type of one message."""
    named: dict[str, Enum | Record] = {}
    for name, spec in doc.get("types", {}).items():
        named[name] = Enum(name, list(spec["enum"])) if "enum" in spec else Record(name)
    for name, spec in doc.get("types", {}).items():
        if "record" in spec:
            rec = named[name]
            assert isinstance(rec, Record)
            rec.fields.extend((str(k), _parse(str(t), named)) for k, t in spec["record"])
    return Types(_parse(message, named), named)


def load_types(path: str | Path) -> Types:
    """A user dataset's types file (its ``message`` is one type)."""
    doc = json.loads(Path(path).read_text())
    return parse_types(doc, doc["message"])


def sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def identifier(key: str) -> str:
    """A field name as an identifier (protocol section 7)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", key)
    return "_" + name if not name or name[0].isdigit() else name
