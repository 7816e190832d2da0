"""Cap'n Proto through pycapnp, whose only API is the dynamic one: the user dataset's
generated .capnp is parsed at prepare time and messages are built and read field by
field, walking the types and the schema side by side: a record's k-th field is the
struct's k-th field in declaration order, an enum's k-th symbol its k-th enumerant
(protocol section 7), so no naming rule is repeated here."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer
from serbench_runner_python.tree import EPOCH, find
from serbench_runner_python.typelang import NULL, Enum, ListOf, MapOf, Optional, Prim, Record, Type

_MS = timedelta(milliseconds=1)
_TRAVERSAL_LIMIT = 2**62  # words: the default (64 MiB) is below the largest datasets


def _scalar_out(t: Type, v: Any) -> Any:
    if isinstance(t, Prim) and t.name == "timestamp_ms":
        return (v - EPOCH) // _MS if isinstance(v, datetime) else v
    return v


def _scalar_in(t: Type, v: Any) -> Any:
    if isinstance(t, Prim) and t.name == "timestamp_ms":
        return EPOCH + timedelta(milliseconds=v)
    if isinstance(t, Prim) and t.name == "bytes":
        return bytes(v)
    return v


class _Walk:
    """Tree <-> dynamic builders and readers, with names taken from the schema."""

    def __init__(self) -> None:
        self.fields: dict[int, list[str]] = {}  # struct node id -> field names, declared order
        self.symbols: dict[int, list[str]] = {}  # enum node id -> enumerants by ordinal

    def _names(self, schema: Any) -> list[str]:
        node = schema.node
        if node.id not in self.fields:
            declared = sorted(node.struct.fields, key=lambda f: f.codeOrder)
            self.fields[node.id] = [f.name for f in declared]
        return self.fields[node.id]

    def _symbols(self, schema: Any) -> list[str]:
        key = schema.node.id
        if key not in self.symbols:
            by_ordinal = sorted(schema.enumerants.items(), key=lambda item: item[1])
            self.symbols[key] = [name for name, _ in by_ordinal]
        return self.symbols[key]

    def fill(self, b: Any, rec: Record, value: dict[str, Any]) -> None:
        for (key, t), name in zip(rec.fields, self._names(b.schema), strict=True):
            self.put(b, name, t, value.get(key))

    def put(self, b: Any, name: str, t: Type, v: Any) -> None:  # noqa: C901 - one per shape
        if isinstance(t, Optional):
            group = getattr(b, name)
            if v is None:
                group.null = None
            else:
                self.put(group, "value", t.of, v)
        elif t == NULL:
            return  # Void
        elif isinstance(t, Record):
            self.fill(b.init(name), t, v)
        elif isinstance(t, ListOf):
            self.items(b.init(name, len(v)), b.schema.fields[name].schema, t.of, v)
        elif isinstance(t, MapOf):
            self.entries(b.init(name, len(v)), t, v)
        elif isinstance(t, Enum):
            setattr(b, name, v)  # an enum field takes its ordinal
        else:
            setattr(b, name, _scalar_out(t, v))

    def entries(self, lst: Any, t: MapOf, value: dict[str, Any]) -> None:
        """A map as its List(EntryN), in file order."""
        for i, (k, x) in enumerate(value.items()):
            lst[i].key = k
            self.put(lst[i], "value", t.of, x)

    def items(self, lst: Any, schema: Any, t: Type, values: list[Any]) -> None:
        """``schema``: the list's own schema (its elementType is the items' one)."""
        for i, x in enumerate(values):
            if isinstance(t, Record):
                self.fill(lst[i], t, x)
            elif isinstance(t, MapOf):
                self.entries(lst.init(i, len(x)), t, x)
            elif isinstance(t, Enum):
                lst[i] = self._symbols(schema.elementType)[x]  # list items take names only
            elif t != NULL:
                lst[i] = _scalar_out(t, x)

    def read(self, r: Any, rec: Record) -> dict[str, Any]:
        return {
            key: self.get(r, name, t)
            for (key, t), name in zip(rec.fields, self._names(r.schema), strict=True)
        }

    def get(self, r: Any, name: str, t: Type) -> Any:
        if isinstance(t, Optional):
            group = getattr(r, name)
            return None if group.which() == "null" else self.get(group, "value", t.of)
        if t == NULL:
            return None
        return self.value(getattr(r, name), t)

    def value(self, v: Any, t: Type) -> Any:
        if isinstance(t, Record):
            return self.read(v, t)
        if isinstance(t, ListOf):
            return [self.value(x, t.of) for x in v]
        if isinstance(t, MapOf):
            return {e.key: self.value(e.value, t.of) for e in v}
        if isinstance(t, Enum):
            return v.raw
        if t == NULL:
            return None
        return _scalar_in(t, v)


def _limits(tree: Any) -> tuple[str, str] | None:
    def test(v: Any) -> str | None:
        if isinstance(v, str) and "\x00" in v:
            return "U+0000 in a string, which Text cannot hold"
        return None

    def key(k: str) -> str | None:
        return "key contains U+0000, which Text cannot hold" if "\x00" in k else None

    return find(tree, test, keys=key)


class Pycapnp(Serializer):
    name = "capnproto-dynamic"
    format = "capnproto"
    distribution = "pycapnp"
    labels = ("binary", "schema-required", "dynamic", "copying-decode")

    def codec(self, dataset: Dataset) -> Codec:
        if dataset.kind == "builtin":
            raise NotApplicable(
                "capnproto: pycapnp's dynamic API is used for user datasets (their .capnp is "
                "generated); the built-in datasets' Cap'n Proto rows are in the C++ and Rust "
                "runners"
            )
        import capnp

        entry = dataset.schemas.get("capnp") or {
            "unavailable": "capnproto: the dataset has no schema"
        }
        if "unavailable" in entry:
            raise NotApplicable(entry["unavailable"])
        module = capnp.load(str(Path(entry["path"])), imports=[])
        root = getattr(module, entry["struct"])
        message = dataset.types.message
        wrapped = not isinstance(message, Record)
        rec = Record("Root", [("value", message)]) if wrapped else message
        walk = _Walk()

        def build(tree: Any) -> Any:
            msg = root.new_message()
            walk.fill(msg, rec, {"value": tree} if wrapped else tree)
            return msg

        def decode(data: Any) -> Any:
            with root.from_bytes(bytes(data), traversal_limit_in_words=_TRAVERSAL_LIMIT) as r:
                out = walk.read(r, rec)
            return out["value"] if wrapped else out

        def encode(tree: Any) -> bytes:
            # Building the message is Cap'n Proto's encoding (to_bytes only copies the
            # segments), so it is timed, as the C++ dynamic row times it.
            return build(tree).to_bytes()

        return Codec(encode=encode, decode=decode, limits=_limits, fmt="capnproto")
