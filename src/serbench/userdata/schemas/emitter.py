"""The walk the languages that declare one block per named type share (protobuf,
FlatBuffers, Cap'n Proto, Thrift): the blocks and who owns each name, enum symbols as
identifiers, map entry structs, and the dispatch on a type that calls each language's
spelling of it. Avro nests its named types where they are first used, so it walks alone."""

from __future__ import annotations

from serbench.userdata.errors import PathPart
from serbench.userdata.schemas.model import Dataset, Unavailable, field_key, no_direct
from serbench.userdata.schemas.names import identifier, upper_camel
from serbench.userdata.types import Enum, ListOf, MapOf, Optional, Prim, Record, Type


class Emitter:
    """One schema being written; subclasses spell the types (the hooks below)."""

    language = ""  # the format name in reasons (protobuf, flatbuffers, ...)
    # Thrift needs a type declared before its first use: a record's block then moves after
    # the blocks its fields declared (the others keep the order of first reference)
    declare_before_use = False
    list_form = ""  # a list of "{}" elements
    map_form = ""  # a map of "{}" values, or with entry_form a list of entries "{}"
    # where the language has no map type: the struct of a map's (key, value) entries
    entry_form: str | None = None

    def __init__(self, ds: Dataset) -> None:
        self.ds = ds
        self.blocks: dict[str, str] = {}  # declaration name -> text, in output order
        self.owners: dict[str, Record | Enum] = {}  # declaration name -> its type
        self.entries: dict[str, str] = {}  # map entry key -> entry struct (no map type)

    def type_name(self, t: Record | Enum) -> str:
        return t.name

    def collision(self, t: Record | Enum, name: str) -> str:
        return f"type name {name} collides"

    def _claim(self, t: Record | Enum, parts: list[PathPart]) -> bool:
        """Reserve the name of ``t``; False when it is declared already."""
        name = self.type_name(t)
        owner = self.owners.setdefault(name, t)
        if owner is not t or name in self.entries.values():
            raise Unavailable(parts, self.collision(t, name))
        if name in self.blocks:
            return False
        self.blocks[name] = ""  # reserve (and stop recursion)
        return True

    def symbols(self, t: Enum, parts: list[PathPart]) -> list[str]:
        """An enum's symbols as identifiers; two symbols that become one are Unavailable."""
        names: list[str] = []
        for s in t.symbols:
            name = identifier(s)
            if name in names:
                raise Unavailable(parts, f"enum symbol {s!r} collides as {name}")
            names.append(name)
        return names

    def _entry(self, form: str, value: str, parts: list[PathPart]) -> str:
        """The entry struct of a map (``form``: entry_form): seed style one per field,
        named after it; protocol style EntryN per value type."""
        if self.ds.style == "seed":
            key = upper_camel(field_key(parts)) + "Entry" if field_key(parts) else "Entry"
        else:
            key = value
        if key not in self.entries:
            entry = key if self.ds.style == "seed" else f"Entry{len(self.entries)}"
            if entry in self.blocks:
                raise Unavailable(parts, f"type name {entry} collides")
            self.entries[key] = entry
            self.blocks[entry] = form.format(name=entry, value=value)
        return self.entries[key]

    def single(self, t: Type, parts: list[PathPart]) -> str:
        """The type of one value; named types are declared on first use."""
        if isinstance(t, Prim):
            why = no_direct(t, self.language)
            if why:
                raise Unavailable(parts, why)
            return self.scalar(t, parts)
        if isinstance(t, Enum):
            name = self.type_name(t)
            if self._claim(t, parts):
                self.blocks[name] = self.enum_block(t, name, parts)
            return name
        if isinstance(t, Record):
            return self.record(t, parts)
        if isinstance(t, ListOf):
            return self.list_of(t, parts)
        if isinstance(t, MapOf):
            return self.map_of(t, parts)
        return self.nested_optional(t, parts)

    def record(self, rec: Record, parts: list[PathPart]) -> str:
        name = self.type_name(rec)
        if self._claim(rec, parts):
            block = self.record_block(rec, name, parts)
            if self.declare_before_use:
                del self.blocks[name]
            self.blocks[name] = block
        return name

    def element(self, t: Type, parts: list[PathPart]) -> str:
        """A list element or map value; languages whose elements cannot be just any type
        refuse the others here."""
        return self.single(t, parts)

    def list_of(self, t: ListOf, parts: list[PathPart]) -> str:
        return self.list_form.format(self.element(t.of, [*parts, "[*]"]))

    def map_of(self, t: MapOf, parts: list[PathPart]) -> str:
        value = self.element(t.of, [*parts, "*"])
        if self.entry_form is not None:
            value = self._entry(self.entry_form, value, parts)
        return self.map_form.format(value)

    def walk(self) -> str:
        """Declare every root record; the name of the last (the one a dataset encodes)."""
        names: list[str] = []
        for root in self.ds.roots():
            assert isinstance(root, Record)
            names.append(self.record(root, []))
        return names[-1]

    # the language's spelling of each kind of type

    def scalar(self, t: Prim, parts: list[PathPart]) -> str:
        raise NotImplementedError

    def enum_block(self, t: Enum, name: str, parts: list[PathPart]) -> str:
        raise NotImplementedError

    def record_block(self, rec: Record, name: str, parts: list[PathPart]) -> str:
        raise NotImplementedError

    def nested_optional(self, t: Optional, parts: list[PathPart]) -> str:
        """An optional where it cannot be a field's presence: a list element or map value."""
        raise Unavailable(parts, f"is {t} inside a list or map (not mapped)")
