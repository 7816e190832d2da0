"""Cap'n Proto: protocol section 7's mapping. Declarations at file level, fields walked by
position; optional<T> is a union of `null :Void` and `value :T`; maps are lists of entry
structs (protocol style: EntryN per value type; seed style: named after their field)."""

from __future__ import annotations

import hashlib

from serbench.userdata.errors import PathPart
from serbench.userdata.schemas.emitter import Emitter
from serbench.userdata.schemas.model import Dataset, Unavailable
from serbench.userdata.schemas.names import capnp_names as names
from serbench.userdata.schemas.names import upper_camel
from serbench.userdata.types import Enum, ListOf, Optional, Prim, Record

SCALARS = {
    "bool": "Bool",
    "int32": "Int32",
    "uint32": "UInt32",
    "int64": "Int64",
    "uint64": "UInt64",
    "float32": "Float32",
    "float64": "Float64",
    "string": "Text",
    "bytes": "Data",
    "timestamp_ms": "Int64",
    "null": "Void",
}


class _Capnp(Emitter):
    language = "capnproto"
    list_form = map_form = "List({})"
    entry_form = "struct {name} {{\n  key @0 :Text;\n  value @1 :{value};\n}}\n"

    def type_name(self, t: Record | Enum) -> str:
        return upper_camel(t.name)  # type names must start upper-case

    def collision(self, t: Record | Enum, name: str) -> str:
        return f"type name {name} collides ({t.name})"

    def scalar(self, t: Prim, parts: list[PathPart]) -> str:
        return SCALARS[t.name]

    def enum_block(self, t: Enum, name: str, parts: list[PathPart]) -> str:
        lines = [f"  {s} @{i};" for i, s in enumerate(names(t.symbols))]
        return f"enum {name} {{\n" + "\n".join(lines) + "\n}\n"

    def list_of(self, t: ListOf, parts: list[PathPart]) -> str:
        if isinstance(t.of, ListOf):
            raise Unavailable(parts, f"is {t}: nested lists are not mapped")
        return super().list_of(t, parts)

    def record_block(self, rec: Record, name: str, parts: list[PathPart]) -> str:
        lines, ordinal = [], 0
        for (key, t), fname in zip(rec.fields, names([k for k, _ in rec.fields]), strict=True):
            at = self.ds.at(rec, parts, key)
            if isinstance(t, Optional):
                inner = self.single(t.of, at)
                lines.append(
                    f"  {fname} :union {{ null @{ordinal} :Void; value @{ordinal + 1} :{inner}; }}"
                )
                ordinal += 2
            else:
                lines.append(f"  {fname} @{ordinal} :{self.single(t, at)};")
                ordinal += 1
        return f"struct {name} {{\n" + "\n".join(lines) + "\n}\n"


def file_id(key: str) -> int:
    """A file id is 64 bits with the top bit set; derived from the dataset so it is stable."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") | 1 << 63


def text(ds: Dataset) -> tuple[str, str]:
    """(.capnp text, name of the root struct, the last one for several); raises Unavailable."""
    gen = _Capnp(ds)
    root = gen.walk()
    head = f"@0x{file_id(ds.package):016x};\n\n"
    if ds.style == "seed":
        head += (
            'using Cxx = import "/capnp/c++.capnp";\n'
            f'$Cxx.namespace("serbench::capnp_gen::{ds.package}");\n\n'
        )
    return head + "\n".join(gen.blocks.values()), root
