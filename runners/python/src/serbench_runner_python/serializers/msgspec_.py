"""msgspec, typed and dynamic. Typed rows use the Structs the build generates from the
types: JSON objects (keyed) and the seed's MessagePack arrays (array-like Structs, S2's
Test3 a bare string). Dynamic rows encode the tree and decode without a type.

msgspec has no incremental decoder, so its MessagePack streams are length-prefixed
(one byte more per S2 message than the seed's concatenation).
"""

from __future__ import annotations

import msgspec

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer
from serbench_runner_python.serializers.limits import MSGPACK
from serbench_runner_python.tree import native


class MsgspecJson(Serializer):
    name = "msgspec-json"
    format = "json"
    distribution = "msgspec"
    labels = (
        "text",
        "schema-required",
        "copying-decode",
        "map-layout",
        "generated",
        "enum-as-ordinal",
        "timestamp-as-text",
    )

    def codec(self, dataset: Dataset) -> Codec:
        model = dataset.typed()
        return Codec(
            encode=msgspec.json.Encoder().encode,
            decode=msgspec.json.Decoder(model.KEYED).decode,
            prepare=model.to_keyed,
            to_native=model.from_keyed,
            fmt="msgspec JSON",
        )


class MsgspecMsgpack(Serializer):
    name = "msgspec-msgpack"
    format = "msgpack"
    distribution = "msgspec"
    labels = (
        "binary",
        "schema-required",
        "copying-decode",
        "positional",
        "generated",
        "enum-as-ordinal",
        "timestamp-native",
    )

    def codec(self, dataset: Dataset) -> Codec:
        model = dataset.typed()
        return Codec(
            encode=msgspec.msgpack.Encoder().encode,
            decode=msgspec.msgpack.Decoder(model.ARRAY).decode,
            prepare=model.to_array,
            to_native=model.from_array,
            limits=MSGPACK,
            fmt="MessagePack",
        )


class MsgspecJsonDynamic(Serializer):
    name = "msgspec-json-dynamic"
    format = "json"
    distribution = "msgspec"
    labels = (
        "text",
        "schemaless",
        "copying-decode",
        "map-layout",
        "dynamic",
        "enum-as-ordinal",
        "timestamp-as-text",
    )

    def codec(self, dataset: Dataset) -> Codec:
        revive, decoder = native(dataset.types.message), msgspec.json.Decoder()
        return Codec(
            encode=msgspec.json.Encoder().encode,
            decode=lambda b: revive(decoder.decode(b)),
            fmt="msgspec JSON",
        )


class MsgspecMsgpackDynamic(Serializer):
    name = "msgspec-msgpack-dynamic"
    format = "msgpack"
    distribution = "msgspec"
    labels = (
        "binary",
        "schemaless",
        "copying-decode",
        "map-layout",
        "dynamic",
        "enum-as-ordinal",
        "timestamp-native",
    )

    def codec(self, dataset: Dataset) -> Codec:
        return Codec(
            encode=msgspec.msgpack.Encoder().encode,
            decode=msgspec.msgpack.Decoder().decode,
            limits=MSGPACK,
            fmt="MessagePack",
        )
