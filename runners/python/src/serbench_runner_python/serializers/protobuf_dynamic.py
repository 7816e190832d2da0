"""protobuf's dynamic API: a message class made at run time (message factory) from the
FileDescriptorSet the orchestrator compiled from a user dataset's .proto, filled by
walking the types and the descriptor's fields by position (protocol section 7)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer
from serbench_runner_python.serializers.protobuf_ import unavailable
from serbench_runner_python.tree import EPOCH, PathPart, format_path
from serbench_runner_python.typelang import (
    NULL,
    ListOf,
    MapOf,
    Optional,
    Prim,
    Record,
    Type,
    Types,
    identifier,
)


def _ms(v: datetime) -> int:
    d = v - EPOCH
    return (d.days * 86_400 + d.seconds) * 1000 + d.microseconds // 1000


def _pb_scalar_in(t: Type) -> Callable[[Any], Any]:
    if isinstance(t, Prim) and t.name == "timestamp_ms":
        return _ms
    return lambda v: v


def _pb_scalar_out(t: Type) -> Callable[[Any], Any]:
    if isinstance(t, Prim) and t.name == "timestamp_ms":
        return lambda v: EPOCH + timedelta(milliseconds=v)
    if isinstance(t, Prim) and t.name == "bytes":
        return bytes
    return lambda v: v


def _pb_fill(rec: Record, parts: list[PathPart]) -> Callable[[Any, dict[str, Any]], None]:
    """Writer of a record into a message; field k is the record's k-th field."""
    steps: list[Callable[[Any, dict[str, Any]], None]] = []
    for key, t in rec.fields:
        step = _pb_field(key, identifier(key), t, [*parts, key])
        if step is not None:
            steps.append(step)

    def fill(msg: Any, value: dict[str, Any]) -> None:
        for step in steps:
            step(msg, value)

    return fill


def _pb_nulls(parts: list[PathPart]) -> Callable[[Any, dict[str, Any]], None]:
    """``list<null>``: a repeated bool that stays empty; a null in it has no encoding."""
    key = parts[-1]

    def empty(msg: Any, v: dict[str, Any]) -> None:
        if v[key]:
            raise NotApplicable(
                f"protobuf: {format_path(parts)} holds nulls in a list, which a repeated "
                "field cannot carry"
            )

    return empty


def _pb_field(  # noqa: C901 - one branch per shape of section 7
    key: str, name: str, t: Type, parts: list[PathPart]
) -> Callable[[Any, dict[str, Any]], None] | None:
    if t == NULL or (isinstance(t, Optional) and t.of == NULL):
        return None  # always null: a field with presence that is never set
    if isinstance(t, Optional):
        inner = t.of
        if isinstance(inner, Record):
            sub = _pb_fill(inner, parts)

            def opt_record(msg: Any, v: dict[str, Any]) -> None:
                x = v[key]
                if x is not None:
                    target = getattr(msg, name)
                    target.SetInParent()
                    sub(target, x)

            return opt_record
        conv = _pb_scalar_in(inner)

        def opt_scalar(msg: Any, v: dict[str, Any]) -> None:
            x = v[key]
            if x is not None:
                setattr(msg, name, conv(x))

        return opt_scalar
    if isinstance(t, Record):
        sub = _pb_fill(t, parts)

        def record(msg: Any, v: dict[str, Any]) -> None:
            target = getattr(msg, name)
            target.SetInParent()
            sub(target, v[key])

        return record
    if isinstance(t, ListOf):
        if t.of == NULL:
            return _pb_nulls(parts)
        if isinstance(t.of, Record):
            sub = _pb_fill(t.of, [*parts, "[*]"])

            def rep_records(msg: Any, v: dict[str, Any]) -> None:
                field = getattr(msg, name)
                for x in v[key]:
                    sub(field.add(), x)

            return rep_records
        conv = _pb_scalar_in(t.of)
        return lambda msg, v: getattr(msg, name).extend([conv(x) for x in v[key]])
    if isinstance(t, MapOf):
        if isinstance(t.of, Record):
            sub = _pb_fill(t.of, [*parts, "*"])

            def map_records(msg: Any, v: dict[str, Any]) -> None:
                field = getattr(msg, name)
                for k, x in v[key].items():
                    sub(field[k], x)

            return map_records
        conv = _pb_scalar_in(t.of)

        def map_scalars(msg: Any, v: dict[str, Any]) -> None:
            field = getattr(msg, name)
            for k, x in v[key].items():
                field[k] = conv(x)

        return map_scalars
    conv = _pb_scalar_in(t)

    def scalar(msg: Any, v: dict[str, Any]) -> None:
        setattr(msg, name, conv(v[key]))

    return scalar


def _pb_read(rec: Record) -> Callable[[Any], dict[str, Any]]:
    steps = []
    for key, t in rec.fields:
        steps.append((key, _pb_get(identifier(key), t)))

    def read(msg: Any) -> dict[str, Any]:
        return {key: get(msg) for key, get in steps}

    return read


def _pb_value(t: Type) -> Callable[[Any], Any]:
    if isinstance(t, Record):
        return _pb_read(t)
    return _pb_scalar_out(t)


def _pb_get(name: str, t: Type) -> Callable[[Any], Any]:
    if t == NULL or (isinstance(t, Optional) and t.of == NULL):
        return lambda msg: None  # never set
    if isinstance(t, ListOf) and t.of == NULL:
        return lambda msg: [None for _ in getattr(msg, name)]
    if isinstance(t, Optional):
        inner = _pb_value(t.of)
        return lambda msg: inner(getattr(msg, name)) if msg.HasField(name) else None
    if isinstance(t, ListOf):
        item = _pb_value(t.of)
        return lambda msg: [item(x) for x in getattr(msg, name)]
    if isinstance(t, MapOf):
        value = _pb_value(t.of)
        return lambda msg: {k: value(x) for k, x in getattr(msg, name).items()}
    get = _pb_value(t)
    return lambda msg: get(getattr(msg, name))


def _message_class(types: Types, entry: dict[str, Any]) -> Any:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    fds = descriptor_pb2.FileDescriptorSet.FromString(Path(entry["descriptor_set"]).read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    package = fds.file[-1].package
    full = f"{package}.{entry['message']}" if package else entry["message"]
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(full))


class ProtobufDynamic(Serializer):
    name = "protobuf-dynamic"
    format = "protobuf"
    distribution = "protobuf"
    labels = ("binary", "schema-required", "copying-decode", "dynamic")

    def codec(self, dataset: Dataset) -> Codec:
        if dataset.kind == "builtin":
            raise NotApplicable(
                "protobuf-dynamic: takes the descriptor set of a user dataset; the built-in "
                "datasets' protobuf row uses the generated classes"
            )
        unavailable(dataset)
        entry = dataset.schemas.get("proto")
        if not entry:
            raise NotApplicable("protobuf: the dataset has no proto schema")
        cls = _message_class(dataset.types, entry)
        message = dataset.types.message
        wrapped = not isinstance(message, Record)
        rec = Record("Root", [("value", message)]) if wrapped else message
        fill, read = _pb_fill(rec, []), _pb_read(rec)

        def to_pb(m: Any) -> Any:
            msg = cls()
            fill(msg, {"value": m} if wrapped else m)
            return msg

        def from_pb(msg: Any) -> Any:
            out = read(msg)
            return out["value"] if wrapped else out

        return Codec(
            encode=cls.SerializeToString,
            decode=cls.FromString,
            prepare=to_pb,
            to_native=from_pb,
            fmt="protobuf",
        )
