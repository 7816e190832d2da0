"""msgspec with typed Structs: JSON (objects) and MessagePack (the seed's array layout).

msgspec has no incremental decoder, so its MessagePack streams are length-prefixed
(one byte more per S2 message than the seed's concatenation).
"""

from __future__ import annotations

import msgspec

from serbench.runner_py.serializers.base import Codec, Serializer
from serbench.runner_py.serializers.msgspec_models import converters, root_type


class MsgspecJson(Serializer):
    name = "msgspec-json"
    format = "json"
    distribution = "msgspec"
    labels = ("text", "schema-required", "copying-decode")

    def codec(self, dataset: str) -> Codec:
        prepare, to_native = converters(dataset, array_like=False)
        decoder = msgspec.json.Decoder(root_type(dataset, False))
        return Codec(
            encode=msgspec.json.Encoder().encode,
            decode=decoder.decode,
            prepare=prepare,
            to_native=to_native,
        )


class MsgspecMsgpack(Serializer):
    name = "msgspec-msgpack"
    format = "msgpack"
    distribution = "msgspec"
    labels = ("binary", "schema-required", "copying-decode", "positional")

    def codec(self, dataset: str) -> Codec:
        prepare, to_native = converters(dataset, array_like=True)
        decoder = msgspec.msgpack.Decoder(root_type(dataset, True))

        return Codec(
            encode=msgspec.msgpack.Encoder().encode,
            decode=decoder.decode,
            prepare=prepare,
            to_native=to_native,
        )
