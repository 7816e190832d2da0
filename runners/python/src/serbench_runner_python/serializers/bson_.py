"""BSON from pymongo. A BSON root must be a document: the built-in datasets' list roots are
wrapped as their users do ({"items": [...]}); a user's non-document root is not applicable."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import bson
from bson.codec_options import CodecOptions

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer
from serbench_runner_python.tree import find
from serbench_runner_python.typelang import ListOf

_OPTIONS = CodecOptions(tz_aware=True, tzinfo=UTC)


def _limits(tree: Any) -> tuple[str, str] | None:
    if not isinstance(tree, dict):
        return "$", "top-level value must be a document"

    def test(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and not -(2**63) <= v < 2**63:
            return f"{v} exceeds int64"
        return None

    def key(k: str) -> str | None:
        return "key contains NUL" if "\x00" in k else None

    return find(tree, test, keys=key)


class Bson(Serializer):
    name = "bson"
    format = "bson"
    distribution = "pymongo"
    labels = (
        "binary",
        "schemaless",
        "copying-decode",
        "map-layout",
        "enum-as-ordinal",
        "timestamp-native",
    )

    def codec(self, dataset: Dataset) -> Codec:
        if dataset.kind == "builtin" and isinstance(dataset.types.message, ListOf):
            return Codec(
                encode=lambda m: bson.encode({"items": m}),
                decode=lambda b: bson.decode(b, _OPTIONS)["items"],
                fmt="BSON",
            )
        return Codec(
            encode=bson.encode,
            decode=lambda b: bson.decode(b, _OPTIONS),
            limits=_limits,
            fmt="BSON",
        )
