"""json from the standard library, compact separators, ISO-8601 date-times."""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial
from typing import Any

from serbench.runner_py.model import revive_iso
from serbench.runner_py.serializers.base import Codec, Serializer


def _default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot encode {type(value).__name__}")


class StdlibJson(Serializer):
    name = "json"
    format = "json"
    labels = ("text", "schemaless", "copying-decode", "map-layout")

    def codec(self, dataset: str) -> Codec:
        dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=_default).encode
        revive = partial(revive_iso, dataset)
        return Codec(
            encode=lambda m: dumps(m).encode(),
            decode=lambda b: revive(json.loads(bytes(b))),
        )
