"""fastavro: Avro binary encoding (schemaless writer/reader) from each dataset's .avsc."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import fastavro

from serbench.datasets import get, schema_path
from serbench.runner_py.serializers.base import Codec, Serializer

_GENDERS = ("Female", "Male")


def _schema(dataset: str) -> Any:
    raw = json.loads(schema_path(get(dataset), ".avsc").read_text())
    if isinstance(raw, list):  # S2: several named records, one per dataset
        named: dict[str, Any] = {}
        parsed = [fastavro.parse_schema(s, named_schemas=named) for s in raw]
        wanted = "serbench.pb_vs_msgpack." + dataset[-5:].capitalize()
        return next(p for p in parsed if p["name"] == wanted)
    return fastavro.parse_schema(raw)


def _enum_converters(dataset: str) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """Avro enums are symbols; the native model keeps ordinals."""
    if dataset == "android-users":
        return (
            lambda m: {"sampleData": [{**r, "gender": _GENDERS[r["gender"]]} for r in m]},
            lambda v: [{**r, "gender": _GENDERS.index(r["gender"])} for r in v["sampleData"]],
        )
    return (lambda m: m), (lambda v: v)


class Fastavro(Serializer):
    name = "fastavro"
    format = "avro"
    distribution = "fastavro"
    labels = ("binary", "schema-required", "copying-decode", "dynamic")

    def codec(self, dataset: str) -> Codec:
        schema = _schema(dataset)
        prepare, to_native = _enum_converters(dataset)
        writer, reader = fastavro.schemaless_writer, fastavro.schemaless_reader

        def encode(message: Any) -> bytes:
            out = io.BytesIO()
            writer(out, schema, message)
            return out.getvalue()

        def decode(data: Any) -> Any:
            return reader(io.BytesIO(data), schema, None)

        return Codec(encode=encode, decode=decode, prepare=prepare, to_native=to_native)
