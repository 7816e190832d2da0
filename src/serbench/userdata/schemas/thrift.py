"""Thrift: records are structs whose field ids are positions (from 1), every field
`required` except optional<T>'s; unsigned 32-bit integers widen to i64 (Thrift has no
unsigned types) and float32 to double. Types are declared before their first use."""

from __future__ import annotations

from serbench.userdata.errors import PathPart
from serbench.userdata.schemas.emitter import Emitter
from serbench.userdata.schemas.model import Dataset, Unavailable, fields
from serbench.userdata.types import Enum, Optional, Prim, Record, Type

SCALARS = {
    "bool": "bool",
    "int32": "i32",
    "uint32": "i64",
    "int64": "i64",
    "float32": "double",
    "float64": "double",
    "string": "string",
    "bytes": "binary",
    "timestamp_ms": "i64",
}


class _Thrift(Emitter):
    language = "thrift"
    declare_before_use = True
    list_form = "list<{}>"
    map_form = "map<string, {}>"

    def scalar(self, t: Prim, parts: list[PathPart]) -> str:
        if t.name == "null":
            if parts and parts[-1] in ("*", "[*]"):
                raise Unavailable(parts, "is a list or map whose values are all null")
            return "bool"
        return SCALARS[t.name]

    def enum_block(self, t: Enum, name: str, parts: list[PathPart]) -> str:
        values = [f"  {s} = {i}" for i, s in enumerate(self.symbols(t, parts))]
        return f"enum {name} {{\n" + ",\n".join(values) + "\n}\n"

    def element(self, t: Type, parts: list[PathPart]) -> str:
        if isinstance(t, Optional):
            raise Unavailable(parts, f"is {t} inside a list or map, where Thrift cannot hold null")
        return self.single(t, parts)

    def record_block(self, rec: Record, name: str, parts: list[PathPart]) -> str:
        lines = []
        for i, (key, fname, t) in enumerate(fields(rec, parts, "struct"), 1):
            at = self.ds.at(rec, parts, key)
            if isinstance(t, Optional):
                lines.append(f"  {i}: optional {self.single(t.of, at)} {fname}")
            elif t == Prim("null"):  # always null: an optional field that is never set
                lines.append(f"  {i}: optional bool {fname}")
            else:
                lines.append(f"  {i}: required {self.single(t, at)} {fname}")
        return f"struct {name} {{\n" + ",\n".join(lines) + "\n}\n"


def text(ds: Dataset) -> tuple[str, str]:
    """(.thrift text, name of the struct a dataset encodes); raises Unavailable."""
    gen = _Thrift(ds)
    root = gen.walk()
    if ds.style == "seed":
        head = "namespace java serbench.thrift\nnamespace cpp serbench_thrift\n\n"
    else:
        head = f"namespace * {ds.package}\n\n"
    return head + "\n".join(gen.blocks.values()), root
