"""json from the standard library: compact separators, ISO-8601 date-times, base64 bytes."""

from __future__ import annotations

import base64
import json
from datetime import datetime
from typing import Any

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer
from serbench_runner_python.tree import native


def _default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"cannot encode {type(value).__name__}")


class StdlibJson(Serializer):
    name = "json"
    format = "json"
    labels = (
        "text",
        "schemaless",
        "copying-decode",
        "map-layout",
        "enum-as-ordinal",
        "timestamp-as-text",
    )

    def codec(self, dataset: Dataset) -> Codec:
        dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=_default).encode
        revive = native(dataset.types.message)
        return Codec(
            encode=lambda m: dumps(m).encode(),
            decode=lambda b: revive(json.loads(bytes(b))),
            fmt="JSON",
        )
