"""fastavro: Avro binary encoding (schemaless writer/reader) of the tree, through the
dataset's .avsc. Avro records are dicts (fastavro has no generated classes): enums are
symbols and field names identifiers, converted outside timing by walking the types."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastavro

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer
from serbench_runner_python.typelang import Enum, ListOf, MapOf, Optional, Record, Type, identifier

Convert = Callable[[Any], Any]


def _conv(t: Type, out: bool) -> Convert | None:
    """Tree <-> Avro datum (enum ordinals <-> symbols, keys <-> field names); None: as is."""
    if isinstance(t, Enum):
        symbols = t.symbols
        return symbols.index if out else symbols.__getitem__
    if isinstance(t, Optional):
        inner = _conv(t.of, out)
        return None if inner is None else (lambda v: None if v is None else inner(v))
    if isinstance(t, ListOf):
        item = _conv(t.of, out)
        return None if item is None else (lambda v: [item(x) for x in v])
    if isinstance(t, MapOf):
        value = _conv(t.of, out)
        return None if value is None else (lambda v: {k: value(x) for k, x in v.items()})
    if isinstance(t, Record):
        fields = [(k, identifier(k), _conv(ft, out)) for k, ft in t.fields]
        if all(k == n and c is None for k, n, c in fields):
            return None
        if out:
            return lambda v: {k: (c(v[n]) if c else v[n]) for k, n, c in fields}
        return lambda v: {n: (c(v[k]) if c else v[k]) for k, n, c in fields}
    return None


def _schema(dataset: Dataset) -> Any:
    """The parsed schema of one message (a file of several names each message's record)."""
    entry = dataset.schemas.get("avsc") or {"unavailable": "avro: the dataset has no Avro schema"}
    if "unavailable" in entry:
        raise NotApplicable(entry["unavailable"])
    raw = entry["schema"] if "schema" in entry else json.loads(Path(entry["path"]).read_text())
    if not isinstance(raw, list):
        return fastavro.parse_schema(raw, named_schemas={})
    named: dict[str, Any] = {}
    parsed = [fastavro.parse_schema(s, named_schemas=named) for s in raw]
    message = dataset.types.message
    wanted = message.name if isinstance(message, Record) else None
    return next(p for p in parsed if p["name"].rsplit(".", 1)[-1] == wanted)


class Fastavro(Serializer):
    name = "fastavro"
    format = "avro"
    distribution = "fastavro"
    labels = ("binary", "schema-required", "copying-decode", "dynamic")

    def codec(self, dataset: Dataset) -> Codec:
        schema = _schema(dataset)
        message = dataset.types.message
        to_avro = _conv(message, out=False) or (lambda v: v)
        from_avro = _conv(message, out=True) or (lambda v: v)
        if not isinstance(message, Record) and schema.get("type") == "record":
            # a schema whose root record holds the message as its only field
            (field,) = schema["fields"]
            key, inner_in, inner_out = field["name"], to_avro, from_avro
            to_avro = lambda v: {key: inner_in(v)}  # noqa: E731
            from_avro = lambda v: inner_out(v[key])  # noqa: E731
        writer, reader = fastavro.schemaless_writer, fastavro.schemaless_reader

        def encode(message: Any) -> bytes:
            out = io.BytesIO()
            writer(out, schema, message)
            return out.getvalue()

        def decode(data: Any) -> Any:
            return reader(io.BytesIO(data), schema, None)

        return Codec(encode=encode, decode=decode, prepare=to_avro, to_native=from_avro, fmt="Avro")
