"""BSON from pymongo. A BSON root must be a document, so lists are wrapped as users do."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import bson
from bson.codec_options import CodecOptions

from serbench.runner_py.model import LIST_ROOTED
from serbench.runner_py.serializers.base import Codec, Serializer

_OPTIONS = CodecOptions(tz_aware=True, tzinfo=UTC)


class Bson(Serializer):
    name = "bson"
    format = "bson"
    distribution = "pymongo"
    labels = ("binary", "schemaless", "copying-decode", "map-layout")

    def codec(self, dataset: str) -> Codec:
        if dataset not in LIST_ROOTED:
            return Codec(encode=bson.encode, decode=lambda b: bson.decode(b, _OPTIONS))

        def encode(message: list[Any]) -> bytes:
            return bson.encode({"items": message})

        def decode(data: Any) -> Any:
            return bson.decode(data, codec_options=_OPTIONS)["items"]

        return Codec(encode=encode, decode=decode)
