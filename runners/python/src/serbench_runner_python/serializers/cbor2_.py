"""cbor2: CBOR with native date-time tags."""

from __future__ import annotations

from datetime import UTC

import cbor2

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer


class Cbor2(Serializer):
    name = "cbor2"
    format = "cbor"
    distribution = "cbor2"
    labels = (
        "binary",
        "schemaless",
        "copying-decode",
        "map-layout",
        "enum-as-ordinal",
        "timestamp-native",
    )

    def codec(self, dataset: Dataset) -> Codec:
        return Codec(encode=lambda m: cbor2.dumps(m, timezone=UTC), decode=cbor2.loads, fmt="CBOR")
