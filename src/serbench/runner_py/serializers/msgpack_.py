"""msgpack-python on plain dicts and lists (maps with keys), Timestamp extension for dates."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack

from serbench.runner_py.serializers.base import Codec, Serializer


def _stream(buf: bytes) -> Iterator[Any]:
    unpacker = msgpack.Unpacker(timestamp=3, max_buffer_size=max(len(buf), 1 << 20))
    unpacker.feed(buf)
    return unpacker


class Msgpack(Serializer):
    name = "msgpack"
    format = "msgpack"
    distribution = "msgpack"
    labels = ("binary", "schemaless", "copying-decode", "map-layout")

    def codec(self, dataset: str) -> Codec:
        packer = msgpack.Packer(datetime=True)
        return Codec(
            encode=packer.pack,
            decode=lambda b: msgpack.unpackb(b, timestamp=3),
            decode_stream=_stream,
        )
