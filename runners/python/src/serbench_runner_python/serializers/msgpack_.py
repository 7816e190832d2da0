"""msgpack-python on the tree (maps with keys), Timestamp extension for date-times."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer
from serbench_runner_python.serializers.limits import MSGPACK


def stream(buf: bytes) -> Iterator[Any]:
    """Concatenated messages, read one by one (MessagePack is self-delimiting)."""
    unpacker = msgpack.Unpacker(
        timestamp=3, strict_map_key=False, max_buffer_size=max(len(buf), 1 << 20)
    )
    unpacker.feed(buf)
    return unpacker


class Msgpack(Serializer):
    name = "msgpack"
    format = "msgpack"
    distribution = "msgpack"
    labels = (
        "binary",
        "schemaless",
        "copying-decode",
        "map-layout",
        "enum-as-ordinal",
        "timestamp-native",
    )

    def codec(self, dataset: Dataset) -> Codec:
        packer = msgpack.Packer(datetime=True)
        return Codec(
            encode=packer.pack,
            decode=lambda b: msgpack.unpackb(b, timestamp=3, strict_map_key=False),
            decode_stream=stream,
            limits=MSGPACK,
            fmt="MessagePack",
        )
