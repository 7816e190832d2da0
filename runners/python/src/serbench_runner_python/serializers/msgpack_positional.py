"""msgpack-python in the seed's positional layout (records as arrays, S1: 383 bytes),
through the conversions the build generates from the types."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer
from serbench_runner_python.serializers.limits import MSGPACK


class MsgpackPositional(Serializer):
    name = "msgpack-positional"
    format = "msgpack"
    distribution = "msgpack"
    labels = (
        "binary",
        "schemaless",
        "copying-decode",
        "positional",
        "generated",
        "enum-as-ordinal",
        "timestamp-native",
    )

    def codec(self, dataset: Dataset) -> Codec:
        model = dataset.typed()
        pack, unpack = model.to_list, model.from_list
        packer = msgpack.Packer(datetime=True)

        def stream(buf: bytes) -> Iterator[Any]:
            unpacker = msgpack.Unpacker(timestamp=3, max_buffer_size=max(len(buf), 1 << 20))
            unpacker.feed(buf)
            return (unpack(m) for m in unpacker)

        return Codec(
            encode=lambda m: packer.pack(pack(m)),
            decode=lambda b: unpack(msgpack.unpackb(b, timestamp=3)),
            decode_stream=stream,
            limits=MSGPACK,
            fmt="MessagePack",
        )
