"""orjson: JSON with native date-time encoding (RFC 3339 strings)."""

from __future__ import annotations

from functools import partial

import orjson

from serbench.runner_py.model import revive_iso
from serbench.runner_py.serializers.base import Codec, Serializer


class Orjson(Serializer):
    name = "orjson"
    format = "json"
    distribution = "orjson"
    labels = ("text", "schemaless", "copying-decode", "map-layout")

    def codec(self, dataset: str) -> Codec:
        revive = partial(revive_iso, dataset)
        return Codec(encode=orjson.dumps, decode=lambda b: revive(orjson.loads(b)))
