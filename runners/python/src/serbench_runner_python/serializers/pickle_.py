"""pickle, the platform's own format (protocol 5)."""

from __future__ import annotations

import pickle

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer


class Pickle(Serializer):
    name = "pickle"
    format = "pickle"
    labels = (
        "binary",
        "schemaless",
        "copying-decode",
        "platform-native",
        "unsafe-untrusted-input",
    )

    def codec(self, dataset: Dataset) -> Codec:
        return Codec(
            encode=lambda m: pickle.dumps(m, protocol=5), decode=pickle.loads, fmt="pickle"
        )
