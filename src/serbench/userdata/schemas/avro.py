"""Avro: protocol section 7's mapping. A message that is not a record needs no wrapper
unless the types file asks for one; several messages make a union of records."""

from __future__ import annotations

import json
import re
from typing import Any

from serbench.userdata.errors import PathPart
from serbench.userdata.schemas.model import Dataset, Unavailable, fields, no_direct
from serbench.userdata.types import Enum, ListOf, MapOf, Optional, Prim, Type

SCALARS: dict[str, Any] = {
    "bool": "boolean",
    "int32": "int",
    "uint32": "long",
    "int64": "long",
    "float32": "float",
    "float64": "double",
    "string": "string",
    "bytes": "bytes",
    "timestamp_ms": {"type": "long", "logicalType": "timestamp-millis"},
}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class _Avro:
    def __init__(self, ds: Dataset) -> None:
        self.ds = ds
        self.defined: set[str] = set()
        # the first named type carries the namespace; the ones inside it inherit it
        self.namespace = f"serbench.{ds.package}" if ds.style == "seed" else None

    def _named(self, out: dict[str, Any]) -> dict[str, Any]:
        if self.namespace:
            out = {"type": out["type"], "name": out["name"], "namespace": self.namespace, **out}
        return out

    def schema(self, t: Type, parts: list[PathPart], top: bool = False) -> Any:
        if isinstance(t, Prim):
            why = no_direct(t, "avro")
            if why:
                raise Unavailable(parts, why)
            return "null" if t.name == "null" else SCALARS[t.name]
        if isinstance(t, Optional):
            inner = self.schema(t.of, parts)
            if inner == "null":
                return "null"
            if isinstance(inner, list):  # a union inside a union: Avro forbids it
                raise Unavailable(parts, f"is {t}: Avro unions cannot nest")
            return ["null", inner]
        if isinstance(t, ListOf):
            if isinstance(t.of, ListOf):
                raise Unavailable(parts, f"is {t}: nested lists are not mapped")
            if isinstance(t.of, Optional):  # section 7: lists of optional<T> are not mapped
                raise Unavailable([*parts, "[*]"], f"is {t.of} inside a list (not mapped)")
            return {"type": "array", "items": self.schema(t.of, [*parts, "[*]"], top)}
        if isinstance(t, MapOf):
            return {"type": "map", "values": self.schema(t.of, [*parts, "*"], top)}
        if t.name in self.defined:
            return t.name
        self.defined.add(t.name)
        if isinstance(t, Enum):
            bad = next((s for s in t.symbols if not _NAME.match(s)), None)
            if bad is not None:
                raise Unavailable(parts, f"enum symbol {bad!r} is not an Avro name")
            out: dict[str, Any] = {"type": "enum", "name": t.name, "symbols": list(t.symbols)}
            return self._named(out) if top else out
        members = []
        for key, name, ft in fields(t, parts, "record"):
            fixed = self.ds.override("avro", t, key)
            members.append(
                {"name": name, "type": fixed or self.schema(ft, self.ds.at(t, parts, key))}
            )
        out = {"type": "record", "name": t.name, "fields": members}
        return self._named(out) if top else out


def schema(ds: Dataset) -> Any:
    """The .avsc document; raises Unavailable."""
    gen = _Avro(ds)
    roots = [gen.schema(t, [], top=True) for t in ds.roots(wrapped=ds.avro_wrapped)]
    return roots[0] if len(roots) == 1 else roots


def text(ds: Dataset) -> str:
    return json.dumps(schema(ds), indent=1) + "\n"
