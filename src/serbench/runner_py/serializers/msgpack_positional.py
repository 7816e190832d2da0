"""msgpack-python in the seed's layout: records as arrays, written by hand (S1: 383 bytes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack

from serbench.runner_py.positional import converters
from serbench.runner_py.serializers.base import Codec, Serializer


class MsgpackPositional(Serializer):
    name = "msgpack-positional"
    format = "msgpack"
    distribution = "msgpack"
    labels = ("binary", "schemaless", "copying-decode", "positional", "handwritten")

    def codec(self, dataset: str) -> Codec:
        pack, unpack = converters(dataset)
        packer = msgpack.Packer(datetime=True)

        def stream(buf: bytes) -> Iterator[Any]:
            unpacker = msgpack.Unpacker(
                timestamp=3, use_list=True, max_buffer_size=max(len(buf), 1 << 20)
            )
            unpacker.feed(buf)
            return (unpack(m) for m in unpacker)

        return Codec(
            encode=lambda m: packer.pack(pack(m)),
            decode=lambda b: unpack(msgpack.unpackb(b, timestamp=3)),
            decode_stream=stream,
        )
