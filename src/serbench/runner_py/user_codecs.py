"""Codecs of the Python runner's serializers on user datasets (protocol section 7).

Schemaless formats take the generic tree (user_tree); JSON formats write bytes as base64
and date-times as ISO-8601 text and revive them through the types after decoding, as a
user would. protobuf fills a message class made at run time from the FileDescriptorSet;
fastavro uses the generated .avsc. Each ``limits`` function names the first value a
format cannot carry, which makes the cell not applicable with that path.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from serbench.runner_py.model import EPOCH
from serbench.runner_py.serializers import REGISTRY
from serbench.runner_py.serializers.base import Codec, Limits, NotApplicable
from serbench.runner_py.user_tree import find, native
from serbench.userdata.errors import PathPart, format_path
from serbench.userdata.schemas import identifier
from serbench.userdata.types import Enum, ListOf, MapOf, Optional, Prim, Record, Type, Types

# Serializers written for the built-in datasets' fixed classes only.
NOT_FOR_USER = {
    "msgpack-positional": "msgpack-positional: hand-written positional layouts exist only for "
    "the built-in datasets' classes",
    "handwritten": "handwritten: the hand-written encoders exist only for the built-in "
    "datasets' classes",
}


def _int_limit(fmt: str, low: int, high: int, what: str) -> Limits:
    def test(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and not low <= v <= high:
            return f"{v} exceeds {what}" if v > high else f"{v} is below {what}'s range"
        return None

    return lambda tree: find(tree, test)


def _bson_limits(tree: Any) -> tuple[str, str] | None:
    if not isinstance(tree, dict):
        return "$", "top-level value must be a document"

    def test(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and not -(2**63) <= v < 2**63:
            return f"{v} exceeds int64"
        return None

    def key(k: str) -> str | None:
        return "key contains NUL" if "\x00" in k else None

    return find(tree, test, keys=key)


def _json_default(v: Any) -> Any:
    if isinstance(v, datetime):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray, memoryview)):
        return base64.b64encode(v).decode("ascii")
    raise TypeError(f"cannot encode {type(v).__name__}")


def _orjson_default(v: Any) -> Any:
    if isinstance(v, (bytes, bytearray, memoryview)):
        return base64.b64encode(v).decode("ascii")
    raise TypeError(f"cannot encode {type(v).__name__}")


def _schemaless(name: str, types: Types) -> tuple[Codec, Limits | None, str]:
    revive = native(types.message)
    u64 = ("msgpack", -(2**63), 2**64 - 1, "uint64")
    if name == "json":
        dumps = json.JSONEncoder(
            separators=(",", ":"), ensure_ascii=False, default=_json_default
        ).encode
        codec = Codec(
            encode=lambda m: dumps(m).encode(), decode=lambda b: revive(json.loads(bytes(b)))
        )
        return codec, None, "JSON"
    if name == "orjson":
        import orjson

        opts = orjson.OPT_PASSTHROUGH_DATACLASS

        def encode(m: Any) -> bytes:
            return orjson.dumps(m, default=_orjson_default, option=opts)

        codec = Codec(encode=encode, decode=lambda b: revive(orjson.loads(b)))
        return codec, _int_limit("orjson", -(2**63), 2**64 - 1, "64-bit integers"), "orjson"
    if name == "msgspec-json":
        import msgspec

        enc, dec = msgspec.json.Encoder(), msgspec.json.Decoder()
        codec = Codec(encode=enc.encode, decode=lambda b: revive(dec.decode(b)))
        return codec, None, "msgspec JSON"
    if name == "msgspec-msgpack":
        import msgspec

        enc, dec = msgspec.msgpack.Encoder(), msgspec.msgpack.Decoder()
        return Codec(encode=enc.encode, decode=dec.decode), _int_limit(*u64), "MessagePack"
    if name == "msgpack":
        import msgpack

        from serbench.runner_py.serializers.msgpack_ import _stream

        packer = msgpack.Packer(datetime=True)
        codec = Codec(
            encode=packer.pack,
            decode=lambda b: msgpack.unpackb(b, timestamp=3, strict_map_key=False),
            decode_stream=_stream,
        )
        return codec, _int_limit(*u64), "MessagePack"
    if name == "cbor2":
        import cbor2

        codec = Codec(encode=lambda m: cbor2.dumps(m, timezone=UTC), decode=cbor2.loads)
        return codec, None, "CBOR"
    if name == "bson":
        import bson
        from bson.codec_options import CodecOptions

        options = CodecOptions(tz_aware=True, tzinfo=UTC)
        codec = Codec(encode=bson.encode, decode=lambda b: bson.decode(b, options))
        return codec, _bson_limits, "BSON"
    if name == "pickle":
        import pickle

        codec = Codec(encode=lambda m: pickle.dumps(m, protocol=5), decode=pickle.loads)
        return codec, None, "pickle"
    raise KeyError(name)


# ---- protobuf ----------------------------------------------------------------------------


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


_NULL = Prim("null")


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
    if t == _NULL or (isinstance(t, Optional) and t.of == _NULL):
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
        if t.of == _NULL:
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
    if t == _NULL or (isinstance(t, Optional) and t.of == _NULL):
        return lambda msg: None  # never set
    if isinstance(t, ListOf) and t.of == _NULL:
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


def _protobuf(types: Types, schemas: dict[str, Any]) -> Codec:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    entry = schemas.get("proto") or {"unavailable": "protobuf: the dataset has no proto schema"}
    if "unavailable" in entry:
        raise NotApplicable(entry["unavailable"])
    fds = descriptor_pb2.FileDescriptorSet.FromString(Path(entry["descriptor_set"]).read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    package = fds.file[-1].package
    full = f"{package}.{entry['message']}" if package else entry["message"]
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName(full))
    rec = (
        types.message
        if isinstance(types.message, Record)
        else Record("Root", [("value", types.message)])
    )
    fill, read = _pb_fill(rec, []), _pb_read(rec)
    wrapped = not isinstance(types.message, Record)

    def to_pb(m: Any) -> Any:
        msg = cls()
        fill(msg, {"value": m} if wrapped else m)
        return msg

    def from_pb(msg: Any) -> Any:
        out = read(msg)
        return out["value"] if wrapped else out

    return Codec(
        encode=cls.SerializeToString, decode=cls.FromString, prepare=to_pb, to_native=from_pb
    )


# ---- Avro --------------------------------------------------------------------------------


def _avro_conv(t: Type, out: bool) -> Callable[[Any], Any] | None:
    """Tree <-> Avro datum (enum ordinals <-> symbols, keys <-> field names); None: as is."""
    if isinstance(t, Enum):
        symbols = t.symbols
        return symbols.index if out else symbols.__getitem__
    if isinstance(t, Optional):
        inner = _avro_conv(t.of, out)
        return None if inner is None else (lambda v: None if v is None else inner(v))
    if isinstance(t, ListOf):
        item = _avro_conv(t.of, out)
        return None if item is None else (lambda v: [item(x) for x in v])
    if isinstance(t, MapOf):
        value = _avro_conv(t.of, out)
        return None if value is None else (lambda v: {k: value(x) for k, x in v.items()})
    if isinstance(t, Record):
        fields = [(k, identifier(k), _avro_conv(ft, out)) for k, ft in t.fields]
        if all(k == n and c is None for k, n, c in fields):
            return None
        if out:
            return lambda v: {k: (c(v[n]) if c else v[n]) for k, n, c in fields}
        return lambda v: {n: (c(v[k]) if c else v[k]) for k, n, c in fields}
    return None


def _fastavro(types: Types, schemas: dict[str, Any]) -> Codec:
    import fastavro

    entry = schemas.get("avsc") or {"unavailable": "avro: the dataset has no Avro schema"}
    if "unavailable" in entry:
        raise NotApplicable(entry["unavailable"])
    schema = fastavro.parse_schema(json.loads(Path(entry["path"]).read_text()), named_schemas={})
    writer, reader = fastavro.schemaless_writer, fastavro.schemaless_reader
    to_avro = _avro_conv(types.message, out=False) or (lambda v: v)
    from_avro = _avro_conv(types.message, out=True) or (lambda v: v)

    def encode(message: Any) -> bytes:
        buf = io.BytesIO()
        writer(buf, schema, message)
        return buf.getvalue()

    def decode(data: Any) -> Any:
        return reader(io.BytesIO(data), schema, None)

    return Codec(encode=encode, decode=decode, prepare=to_avro, to_native=from_avro)


# ---- the entry point ---------------------------------------------------------------------


def applicability(serializer: str) -> dict[str, Any]:
    """The serializer's ``user_datasets`` entry of describe."""
    if serializer in NOT_FOR_USER:
        return {"applicable": False, "reason": NOT_FOR_USER[serializer]}
    return {"applicable": True}


def user_codec(
    serializer: str, types: Types, schemas: dict[str, Any]
) -> tuple[Codec, Limits | None, str]:
    """(codec, the first value the format cannot carry, the format's name for messages)."""
    if serializer in NOT_FOR_USER:
        raise NotApplicable(NOT_FOR_USER[serializer])
    if serializer == "noop":
        return REGISTRY["noop"].codec("user"), None, "noop"
    if serializer == "protobuf":
        return _protobuf(types, schemas), None, "protobuf"
    if serializer == "fastavro":
        return _fastavro(types, schemas), None, "Avro"
    own = REGISTRY[serializer].user_codec(types, schemas) if serializer in REGISTRY else None
    if own is not None:  # a serializer that carries its own user-dataset codec
        return own
    try:
        return _schemaless(serializer, types)
    except KeyError:
        raise NotApplicable(f"{serializer}: no user-data support in the Python runner") from None
