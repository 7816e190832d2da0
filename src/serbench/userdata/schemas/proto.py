"""Protocol Buffers: protocol section 7's mapping; proto3, or proto2 with `required`
fields where the types file asks for it (the seeds wrote zero values too)."""

from __future__ import annotations

import re

from serbench.userdata.errors import PathPart
from serbench.userdata.schemas.emitter import Emitter
from serbench.userdata.schemas.model import Dataset, Unavailable, fields
from serbench.userdata.schemas.names import identifier, upper_camel
from serbench.userdata.types import Enum, ListOf, MapOf, Optional, Prim, Record, Type

SCALARS = {
    "bool": "bool",
    "int32": "int32",
    "uint32": "uint32",
    "int64": "int64",
    "uint64": "uint64",
    "float32": "float",
    "float64": "double",
    "string": "string",
    "bytes": "bytes",
    "timestamp_ms": "int64",
}


class _Proto(Emitter):
    language = "protobuf"

    def scalar(self, t: Prim, parts: list[PathPart]) -> str:
        if t.name == "null":  # only in a list only ever seen empty: repeated bool
            if parts and parts[-1] == "*":
                raise Unavailable(parts, "is a map whose values are all null")
            return "bool"
        return SCALARS[t.name]

    def enum_block(self, t: Enum, name: str, parts: list[PathPart]) -> str:
        # proto enum values share the package's scope: protocol style prefixes them
        prefix = "" if self.ds.style == "seed" else upper_snake(t.name) + "_"
        values, used = [], set()
        for i, s in enumerate(t.symbols):
            v = prefix + (identifier(s) if self.ds.style == "seed" else identifier(s).upper())
            while v in used:
                v += "_"
            used.add(v)
            values.append(f"  {v} = {i};")
        return f"enum {name} {{\n" + "\n".join(values) + "\n}\n"

    # lists and maps are fields (repeated, map<>), never the element of another
    def list_of(self, t: ListOf, parts: list[PathPart]) -> str:
        raise Unavailable(parts, f"is {t} inside a list or map (protobuf cannot nest them)")

    def map_of(self, t: MapOf, parts: list[PathPart]) -> str:
        raise Unavailable(parts, f"is {t} inside a list or map (protobuf cannot nest them)")

    def nested_optional(self, t: Optional, parts: list[PathPart]) -> str:
        raise Unavailable(
            parts, f"is {t} inside a list or map, where protobuf elements cannot be null"
        )

    def field(self, t: Type, parts: list[PathPart]) -> str:
        """Label and type of a message field."""
        required = "required " if self.ds.proto2 else ""
        if isinstance(t, ListOf):
            return f"repeated {self.single(t.of, [*parts, '[*]'])}"
        if isinstance(t, MapOf):
            return f"map<string, {self.single(t.of, [*parts, '*'])}>"
        if isinstance(t, Optional):
            if isinstance(t.of, (ListOf, MapOf)):
                raise Unavailable(parts, f"is {t}: a protobuf repeated or map field cannot be null")
            if isinstance(t.of, Record):  # message fields have presence
                return ("optional " if self.ds.proto2 else "") + self.single(t.of, parts)
            t = t.of
            if isinstance(t, Prim) and t.name == "null":
                return "optional bool"
            return f"optional {self.single(t, parts)}"
        if t == Prim("null"):  # always null: a field with presence that is never set
            return "optional bool"
        return required + self.single(t, parts)

    def record_block(self, rec: Record, name: str, parts: list[PathPart]) -> str:
        lines = []
        for i, (key, fname, t) in enumerate(fields(rec, parts, "message"), 1):
            at = self.ds.at(rec, parts, key)
            fixed = self.ds.override("protobuf", rec, key)
            kind = f"{'required ' if self.ds.proto2 else ''}{fixed}" if fixed else self.field(t, at)
            lines.append(f"  {kind} {fname} = {i};")
        return f"message {name} {{\n" + "\n".join(lines) + "\n}\n"


def upper_snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def text(ds: Dataset) -> tuple[str, str]:
    """(.proto text, name of the message a dataset encodes, the last one for several);
    raises Unavailable. Field numbers are positions, from 1."""
    gen = _Proto(ds)
    root = gen.walk()
    syntax = "proto2" if ds.proto2 else "proto3"
    head = [f'syntax = "{syntax}";', ""]
    if ds.style == "seed":
        head += [
            f"package serbench.{ds.package};",
            "",
            'option java_package = "serbench.proto";',
            f'option java_outer_classname = "{upper_camel(ds.package)}Proto";',
            f'option go_package = "serbench/gen/{ds.package.replace("_", "")}";',
        ]
    else:
        head.append(f"package {ds.package};")
    return "\n".join(head) + "\n\n" + "\n".join(gen.blocks.values()), root
