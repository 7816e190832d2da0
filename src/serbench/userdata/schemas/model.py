"""What every schema generator shares: the dataset's messages, its naming conventions,
and the walk helpers (identifiers, collisions, types without a direct mapping)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from serbench.userdata.errors import PathPart, format_path
from serbench.userdata.schemas.names import identifier
from serbench.userdata.types import Prim, Record, Type, TypesFileError, load_types, parse

# "seed": the built-in datasets' conventions (namespaces per language, enum values and map
# entries named as the seeds named them); "protocol": protocol section 7's for user data.
Style = Literal["seed", "protocol"]


class Unavailable(Exception):
    """A type the schema language cannot carry directly, with its path."""

    def __init__(self, parts: list[PathPart], reason: str) -> None:
        super().__init__(f"{format_path(parts)} {reason}")


@dataclass(frozen=True)
class Dataset:
    """One types.json as the generators see it.

    ``messages`` holds one type per dataset the file describes (S2 has four). A message
    that is not a record is carried by ``wrapper``, a record holding it as its only field.
    """

    package: str  # names the dataset in every namespace (seed style: lower_snake)
    messages: list[Type]
    wrapper: Record | None
    avro_wrapped: bool = False
    proto2: bool = False
    field_types: dict[str, dict[str, str]] = field(default_factory=dict)
    style: Style = "protocol"

    def roots(self, wrapped: bool = True) -> list[Type]:
        """The top-level types of a schema: the wrapper instead of a non-record message."""
        if wrapped and self.wrapper is not None:
            return [self.wrapper]
        return list(self.messages)

    def override(self, language: str, rec: Record, key: str) -> str | None:
        """A field's type fixed for one schema language by the types file's annotation."""
        return self.field_types.get(language, {}).get(f"{rec.name}.{key}")

    def at(self, rec: Record, parts: list[PathPart], key: str) -> list[PathPart]:
        """The path of a field: the wrapper is no part of the data, so not of its paths."""
        return parts if rec is self.wrapper else [*parts, key]


def load(doc: Any, package: str, style: Style = "protocol") -> Dataset:
    """A types.json document (with its optional ``schema`` annotation) -> Dataset."""
    message = doc.get("message") if isinstance(doc, dict) else None
    names = list(message.values()) if isinstance(message, dict) else [message]
    if not names or not all(isinstance(n, str) for n in names):
        raise TypesFileError('"message" is a type, or an object of dataset name -> type')
    types = load_types({**doc, "message": names[0]})
    messages = [types.message, *(parse(n, types.named) for n in names[1:])]
    note = doc.get("schema") or {}
    if len(messages) > 1 and not all(isinstance(m, Record) for m in messages):
        raise TypesFileError("several messages must all be records")
    return Dataset(
        package=package,
        messages=messages,
        wrapper=wrap(messages[0], *note.get("root", ("Root", "value"))),
        avro_wrapped=bool(note.get("avro_root", False)),
        proto2=bool(note.get("proto2", False)),
        field_types=dict(note.get("field_types", {})),
        style=style,
    )


def wrap(message: Type, name: str = "Root", field: str = "value") -> Record | None:
    """The record that carries a message that is not a record (None for a record)."""
    return None if isinstance(message, Record) else Record(name, [(field, message)])


def fields(rec: Record, parts: list[PathPart], what: str) -> list[tuple[str, str, Type]]:
    """(key, identifier, type) per field; two keys with one identifier are Unavailable."""
    out, seen = [], set()
    for key, t in rec.fields:
        name = identifier(key)
        if name.lower() in seen:
            raise Unavailable([*parts, key], f"field name {name} collides in {what} {rec.name}")
        seen.add(name.lower())
        out.append((key, name, t))
    return out


def no_direct(t: Prim, language: str) -> str | None:
    """Why a primitive has no direct mapping in ``language`` (None: it has one)."""
    if t.name == "any":
        return f"mixes {t.why}" if t.why else "is declared any, which has no direct mapping"
    if t.name == "bigint":
        return "holds integers beyond 64 bits (type bigint)"
    if t.name == "uint64" and language in ("avro", "thrift"):
        return f"is uint64: {language.capitalize()} has no unsigned 64-bit type"
    return None


def field_key(parts: list[PathPart]) -> str:
    """The innermost record field on a path ("" at the top)."""
    return next((p for p in reversed(parts) if isinstance(p, str) and p not in ("*", "[*]")), "")


__all__ = [
    "Dataset",
    "Style",
    "Unavailable",
    "field_key",
    "fields",
    "load",
    "no_direct",
    "wrap",
]
