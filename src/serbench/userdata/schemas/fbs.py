"""FlatBuffers: records are tables whose fields follow the record's order; lists are
vectors; a map is a vector of entry tables (key, value) named as Cap'n Proto names them;
optional<T> is a field that may be absent (scalars: `= null`, which flatc 2 and later
support); the root table is the dataset's message, the last one for several."""

from __future__ import annotations

from serbench.userdata.errors import PathPart
from serbench.userdata.schemas.emitter import Emitter
from serbench.userdata.schemas.model import Dataset, Unavailable, fields
from serbench.userdata.types import Enum, ListOf, MapOf, Optional, Prim, Record, Type

SCALARS = {
    "bool": "bool",
    "int32": "int",
    "uint32": "uint",
    "int64": "long",
    "uint64": "ulong",
    "float32": "float",
    "float64": "double",
    "string": "string",
    "bytes": "[ubyte]",
    "timestamp_ms": "long",
}


class _Fbs(Emitter):
    language = "flatbuffers"
    list_form = map_form = "[{}]"
    entry_form = "table {name} {{\n  key:string;\n  value:{value};\n}}\n"

    def scalar(self, t: Prim, parts: list[PathPart]) -> str:
        return "bool" if t.name == "null" else SCALARS[t.name]

    def enum_block(self, t: Enum, name: str, parts: list[PathPart]) -> str:
        values = ", ".join(f"{s} = {i}" for i, s in enumerate(self.symbols(t, parts)))
        base = "byte" if len(t.symbols) <= 128 else "short"
        return f"enum {name} : {base} {{ {values} }}\n"

    def element(self, t: Type, parts: list[PathPart]) -> str:
        """The type of a vector element or a map value: no vectors of vectors."""
        if isinstance(t, Optional):
            raise Unavailable(parts, f"is {t} inside a list or map (not mapped)")
        if isinstance(t, (ListOf, MapOf)) or t == Prim("bytes"):
            raise Unavailable(parts, f"is {t} inside a list or map (vectors cannot nest)")
        return self.single(t, parts)

    def field(self, t: Type, parts: list[PathPart]) -> str:
        if isinstance(t, Optional):
            inner = self.single(t.of, parts)
            scalar = isinstance(t.of, Enum) or (
                isinstance(t.of, Prim) and t.of.name not in ("string", "bytes")
            )
            return f"{inner} = null" if scalar else inner
        if t == Prim("null"):  # always null: an optional scalar that is never set
            return "bool = null"
        return self.single(t, parts)

    def record_block(self, rec: Record, name: str, parts: list[PathPart]) -> str:
        lines = []
        for key, fname, t in fields(rec, parts, "table"):
            lines.append(f"  {fname}:{self.field(t, self.ds.at(rec, parts, key))};")
        return f"table {name} {{\n" + "\n".join(lines) + "\n}\n"


def text(ds: Dataset) -> tuple[str, str]:
    """(.fbs text, root table); raises Unavailable."""
    gen = _Fbs(ds)
    root = gen.walk()
    namespace = f"serbench.fbs.{ds.package}" if ds.style == "seed" else ds.package
    # flatc resolves tables declared later, but not enums
    blocks = sorted(gen.blocks.values(), key=lambda b: not b.startswith("enum "))
    body = "\n".join(blocks)
    return f"namespace {namespace};\n\n{body}\nroot_type {root};\n", root
