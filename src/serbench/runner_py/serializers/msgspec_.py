"""msgspec with typed Structs: JSON (objects) and MessagePack (the seed's array layout).

msgspec has no incremental decoder, so its MessagePack streams are length-prefixed
(one byte more per S2 message than the seed's concatenation).
"""

from __future__ import annotations

from types import ModuleType

import msgspec

from serbench.runner_py.serializers.base import Codec, Serializer
from serbench.runner_py.serializers.msgspec_models import converters, root_type


def _codec(dataset: str, module: ModuleType, array_like: bool) -> Codec:
    prepare, to_native = converters(dataset, array_like=array_like)
    return Codec(
        encode=module.Encoder().encode,
        decode=module.Decoder(root_type(dataset, array_like)).decode,
        prepare=prepare,
        to_native=to_native,
    )


class MsgspecJson(Serializer):
    name = "msgspec-json"
    format = "json"
    distribution = "msgspec"
    labels = ("text", "schema-required", "copying-decode", "map-layout")

    def codec(self, dataset: str) -> Codec:
        return _codec(dataset, msgspec.json, array_like=False)


class MsgspecMsgpack(Serializer):
    name = "msgspec-msgpack"
    format = "msgpack"
    distribution = "msgspec"
    labels = ("binary", "schema-required", "copying-decode", "positional")

    def codec(self, dataset: str) -> Codec:
        return _codec(dataset, msgspec.msgpack, array_like=True)
