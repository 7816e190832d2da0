"""orjson: JSON with native date-time encoding (RFC 3339 strings), base64 bytes."""

from __future__ import annotations

import base64
from typing import Any

import orjson

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer
from serbench_runner_python.serializers.limits import INT64_OR_UINT64
from serbench_runner_python.tree import native


def _default(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"cannot encode {type(value).__name__}")


class Orjson(Serializer):
    name = "orjson"
    format = "json"
    distribution = "orjson"
    labels = (
        "text",
        "schemaless",
        "copying-decode",
        "map-layout",
        "enum-as-ordinal",
        "timestamp-as-text",
    )

    def codec(self, dataset: Dataset) -> Codec:
        revive = native(dataset.types.message)
        return Codec(
            encode=lambda m: orjson.dumps(m, default=_default),
            decode=lambda b: revive(orjson.loads(b)),
            limits=INT64_OR_UINT64,
            fmt="orjson",
        )
