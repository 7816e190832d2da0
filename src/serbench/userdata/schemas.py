"""Schemas generated from the types, exactly as protocol section 7 maps them.

Where the mapping is not direct, the schema is ``{"unavailable": "<format>: <path> <reason>"}``.
The .proto is also compiled with grpcio-tools' protoc into a FileDescriptorSet.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from serbench.userdata.errors import PathPart, format_path
from serbench.userdata.types import Enum, ListOf, MapOf, Optional, Prim, Record, Type, Types

# Bumped when the generated schemas change, so `run --data` registers a file again.
SCHEMAS_VERSION = 2

# Schema kinds a runner may ask for that serbench does not generate for user data (yet).
NOT_GENERATED = {
    "fbs": "flatbuffers",
    "thrift": "thrift",
}


class Unavailable(Exception):
    def __init__(self, parts: list[PathPart], reason: str) -> None:
        super().__init__(f"{format_path(parts)} {reason}")


def identifier(key: str) -> str:
    """A field name as an identifier: other characters `_`, a leading digit prefixed `_`."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", key)
    if not name or name[0].isdigit():
        name = "_" + name
    return name


def _fields(rec: Record, parts: list[PathPart], what: str) -> list[tuple[str, str, Type]]:
    out, seen = [], set()
    for key, t in rec.fields:
        name = identifier(key)
        if name.lower() in seen:
            raise Unavailable([*parts, key], f"field name {name} collides in {what} {rec.name}")
        seen.add(name.lower())
        out.append((key, name, t))
    return out


# ---- protobuf ------------------------------------------------------------------------

_PROTO_SCALARS = {
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


def _no_direct(t: Prim, fmt: str) -> str | None:
    """Why a primitive has no direct mapping in ``fmt`` (None: it has one)."""
    if t.name == "any":
        return f"mixes {t.why}" if t.why else "is declared any, which has no direct mapping"
    if t.name == "bigint":
        return "holds integers beyond 64 bits (type bigint)"
    if t.name == "uint64" and fmt == "avro":
        return "is uint64: Avro has no unsigned 64-bit type"
    return None


class _Proto:
    def __init__(self) -> None:
        self.blocks: dict[str, str] = {}

    def single(self, t: Type, parts: list[PathPart]) -> str:
        """The proto type of one value (no label)."""
        if isinstance(t, Prim):
            why = _no_direct(t, "protobuf")
            if why:
                raise Unavailable(parts, why)
            if t.name == "null":  # only in a list only ever seen empty: repeated bool
                if parts and parts[-1] == "*":
                    raise Unavailable(parts, "is a map whose values are all null")
                return "bool"
            return _PROTO_SCALARS[t.name]
        if isinstance(t, Enum):
            if t.name not in self.blocks:
                prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", t.name).upper()
                values, used = [], set()
                for i, s in enumerate(t.symbols):
                    v = f"{prefix}_{identifier(s).upper()}"
                    while v in used:
                        v += "_"
                    used.add(v)
                    values.append(f"  {v} = {i};")
                self.blocks[t.name] = f"enum {t.name} {{\n" + "\n".join(values) + "\n}\n"
            return t.name
        if isinstance(t, Record):
            self.message(t, parts)
            return t.name
        if isinstance(t, Optional):
            raise Unavailable(
                parts, f"is {t} inside a list or map, where protobuf elements cannot be null"
            )
        raise Unavailable(parts, f"is {t} inside a list or map (protobuf cannot nest them)")

    def field(self, t: Type, parts: list[PathPart]) -> str:
        """Label and type of a message field."""
        if isinstance(t, ListOf):
            return f"repeated {self.single(t.of, [*parts, '[*]'])}"
        if isinstance(t, MapOf):
            return f"map<string, {self.single(t.of, [*parts, '*'])}>"
        if isinstance(t, Optional):
            if isinstance(t.of, (ListOf, MapOf)):
                raise Unavailable(parts, f"is {t}: a protobuf repeated or map field cannot be null")
            if isinstance(t.of, Record):
                return self.single(t.of, parts)  # message fields have presence
            t = t.of
            if isinstance(t, Prim) and t.name == "null":
                return "optional bool"
            return f"optional {self.single(t, parts)}"
        if t == Prim("null"):  # always null: a field with presence that is never set
            return "optional bool"
        return self.single(t, parts)

    def message(self, rec: Record, parts: list[PathPart]) -> None:
        if rec.name in self.blocks:
            return
        self.blocks[rec.name] = ""  # reserve (and stop recursion)
        lines = []
        for i, (key, name, t) in enumerate(_fields(rec, parts, "message"), 1):
            lines.append(f"  {self.field(t, [*parts, key])} {name} = {i};")
        self.blocks[rec.name] = f"message {rec.name} {{\n" + "\n".join(lines) + "\n}\n"


def proto_text(types: Types, package: str) -> tuple[str, str]:
    """(.proto text, message name); raises Unavailable."""
    gen = _Proto()
    if isinstance(types.message, Record):
        gen.message(types.message, [])
        message = types.message.name
    else:
        line = f"  {gen.field(types.message, [])} value = 1;"
        gen.blocks["Root"] = f"message Root {{\n{line}\n}}\n"
        message = "Root"
    head = f'syntax = "proto3";\n\npackage {package};\n\n'
    return head + "\n".join(b for b in gen.blocks.values()), message


def compile_proto(proto: Path, out: Path) -> str | None:
    """protoc the .proto into a FileDescriptorSet; None, or protoc's complaint."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{proto.parent}",
            "--include_imports",
            f"--descriptor_set_out={out}",
            proto.name,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        return (proc.stderr or proc.stdout).strip()[:300] or f"exit status {proc.returncode}"
    return None


# ---- Avro ----------------------------------------------------------------------------

_AVRO_SCALARS: dict[str, Any] = {
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
_AVRO_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class _Avro:
    def __init__(self) -> None:
        self.defined: set[str] = set()

    def schema(self, t: Type, parts: list[PathPart]) -> Any:
        if isinstance(t, Prim):
            why = _no_direct(t, "avro")
            if why:
                raise Unavailable(parts, why)
            return "null" if t.name == "null" else _AVRO_SCALARS[t.name]
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
            return {"type": "array", "items": self.schema(t.of, [*parts, "[*]"])}
        if isinstance(t, MapOf):
            return {"type": "map", "values": self.schema(t.of, [*parts, "*"])}
        if t.name in self.defined:
            return t.name
        self.defined.add(t.name)
        if isinstance(t, Enum):
            bad = next((s for s in t.symbols if not _AVRO_NAME.match(s)), None)
            if bad is not None:
                raise Unavailable(parts, f"enum symbol {bad!r} is not an Avro name")
            return {"type": "enum", "name": t.name, "symbols": list(t.symbols)}
        fields = [
            {"name": name, "type": self.schema(ft, [*parts, key])}
            for key, name, ft in _fields(t, parts, "record")
        ]
        return {"type": "record", "name": t.name, "fields": fields}


def avro_schema(types: Types) -> Any:
    return _Avro().schema(types.message, [])


# ---- Cap'n Proto -----------------------------------------------------------------------

_CAPNP_SCALARS = {
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


def _words(key: str) -> list[str]:
    return [w for w in re.split(r"[^A-Za-z0-9]+", key) if w]


def _upper_camel(name: str) -> str:
    """A type name: Cap'n Proto wants an upper-case first letter and no underscores."""
    words = _words(name)
    out = "".join(w[0].upper() + w[1:] for w in words) or "T"
    return out if out[0].isalpha() else "T" + out


def _lower_camel(key: str, used: set[str]) -> str:
    """A field or enumerant name, unique in ``used``: lowerCamel, no underscores."""
    words = _words(key) or ["field"]
    name = words[0][0].lower() + words[0][1:] + "".join(w[0].upper() + w[1:] for w in words[1:])
    if not name[0].isalpha():
        name = "f" + name
    base, n = name, 1
    while name in used:
        n += 1
        name = f"{base}{n}"
    used.add(name)
    return name


def capnp_names(keys: list[str]) -> list[str]:
    """The Cap'n Proto names of a record's fields or an enum's symbols, in order."""
    used: set[str] = set()
    return [_lower_camel(k, used) for k in keys]


class _Capnp:
    """Protocol section 7's Cap'n Proto mapping: declarations at file level, fields walked
    by position; optional<T> is a group holding a union of `null :Void` and `value :T`."""

    def __init__(self) -> None:
        self.blocks: dict[str, str] = {}  # declaration name -> text
        self.names: dict[int, str] = {}  # id(Record or Enum) -> its Cap'n Proto name
        self.entries: dict[str, str] = {}  # value type -> EntryN

    def _declare(self, t: Record | Enum, parts: list[PathPart]) -> tuple[str, bool]:
        """(name, already declared)."""
        if id(t) in self.names:
            return self.names[id(t)], True
        name = _upper_camel(t.name)
        if name in self.blocks:
            raise Unavailable(parts, f"type name {name} collides ({t.name})")
        self.names[id(t)] = name
        self.blocks[name] = ""  # reserve (and stop recursion)
        return name, False

    def single(self, t: Type, parts: list[PathPart]) -> str:
        """The Cap'n Proto type of one non-optional value."""
        if isinstance(t, Prim):
            why = _no_direct(t, "capnproto")
            if why:
                raise Unavailable(parts, why)
            return _CAPNP_SCALARS[t.name]
        if isinstance(t, Enum):
            name, done = self._declare(t, parts)
            if not done:
                names = capnp_names(t.symbols)
                lines = [f"  {name} @{i};" for i, name in enumerate(names)]
                self.blocks[name] = f"enum {name} {{\n" + "\n".join(lines) + "\n}\n"
            return name
        if isinstance(t, Record):
            return self.struct(t, parts)
        if isinstance(t, Optional):
            raise Unavailable(parts, f"is {t} inside a list or map (not mapped)")
        if isinstance(t, ListOf):
            if isinstance(t.of, ListOf):
                raise Unavailable(parts, f"is {t}: nested lists are not mapped")
            return f"List({self.single(t.of, [*parts, '[*]'])})"
        value = self.single(t.of, [*parts, "*"])
        if value not in self.entries:
            entry = f"Entry{len(self.entries)}"
            if entry in self.blocks:
                raise Unavailable(parts, f"type name {entry} collides")
            self.entries[value] = entry
            self.blocks[entry] = f"struct {entry} {{\n  key @0 :Text;\n  value @1 :{value};\n}}\n"
        return f"List({self.entries[value]})"

    def fields(self, rec: Record, parts: list[PathPart]) -> list[str]:
        lines, ordinal = [], 0
        for (key, t), name in zip(rec.fields, capnp_names([k for k, _ in rec.fields]), strict=True):
            if isinstance(t, Optional):
                inner = self.single(t.of, [*parts, key])
                lines.append(
                    f"  {name} :union {{ null @{ordinal} :Void; value @{ordinal + 1} :{inner}; }}"
                )
                ordinal += 2
            else:
                lines.append(f"  {name} @{ordinal} :{self.single(t, [*parts, key])};")
                ordinal += 1
        return lines

    def struct(self, rec: Record, parts: list[PathPart]) -> str:
        name, done = self._declare(rec, parts)
        if not done:
            lines = self.fields(rec, parts)
            self.blocks[name] = f"struct {name} {{\n" + "\n".join(lines) + "\n}\n"
        return name


def capnp_text(types: Types, file_key: str) -> tuple[str, str]:
    """(.capnp text, root struct name); raises Unavailable."""
    gen = _Capnp()
    if isinstance(types.message, Record):
        root = gen.struct(types.message, [])
    else:
        if "Root" in gen.blocks:
            raise Unavailable([], "type name Root collides")
        gen.blocks["Root"] = ""
        lines = gen.fields(Record("Root", [("value", types.message)]), [])
        gen.blocks["Root"] = "struct Root {\n" + "\n".join(lines) + "\n}\n"
        root = "Root"
    # a file id is 64 bits with the top bit set; derived from the dataset so it is stable
    file_id = int.from_bytes(hashlib.sha256(file_key.encode()).digest()[:8], "big") | 1 << 63
    return f"@0x{file_id:016x};\n\n" + "\n".join(gen.blocks.values()), root


def check_capnp(path: Path) -> str | None:
    """The capnp compiler's complaint about the schema, if the compiler is installed."""
    capnp = shutil.which("capnp")
    if capnp is None:
        return None
    proc = subprocess.run(
        [capnp, "compile", "-o-", f"--src-prefix={path.parent}", str(path)],
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        return proc.stderr.decode(errors="replace").strip()[:300] or "capnp compile failed"
    return None


# ---- all of them -----------------------------------------------------------------------


def write_schemas(types: Types, folder: Path, stem: str, package: str) -> dict[str, Any]:
    """Write NAME.proto / NAME.pb / NAME.avsc / NAME.capnp into ``folder``; the protocol's
    ``schemas`` object with paths relative to ``folder`` (made absolute by the registry)."""
    out: dict[str, Any] = {}
    try:
        text, message = proto_text(types, package)
    except Unavailable as exc:
        out["proto"] = {"unavailable": f"protobuf: {exc}"}
    else:
        proto = folder / f"{stem}.proto"
        proto.write_text(text)
        problem = compile_proto(proto, folder / f"{stem}.pb")
        if problem:
            out["proto"] = {"unavailable": f"protobuf: protoc rejects the schema: {problem}"}
        else:
            out["proto"] = {"path": proto.name, "descriptor_set": f"{stem}.pb", "message": message}
    try:
        avsc = avro_schema(types)
    except Unavailable as exc:
        out["avsc"] = {"unavailable": f"avro: {exc}"}
    else:
        (folder / f"{stem}.avsc").write_text(json.dumps(avsc, indent=1) + "\n")
        out["avsc"] = {"path": f"{stem}.avsc"}
    try:
        text, root = capnp_text(types, package)
    except Unavailable as exc:
        out["capnp"] = {"unavailable": f"capnproto: {exc}"}
    else:
        capnp = folder / f"{stem}.capnp"
        capnp.write_text(text)
        problem = check_capnp(capnp)
        if problem:
            out["capnp"] = {"unavailable": f"capnproto: capnp rejects the schema: {problem}"}
        else:
            out["capnp"] = {"path": capnp.name, "struct": root}
    for kind, fmt in NOT_GENERATED.items():
        out[kind] = {
            "unavailable": f"{fmt}: serbench does not generate {kind} schemas for user datasets yet"
        }
    return out
