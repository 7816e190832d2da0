"""pickle, the platform's own format (protocol 5)."""

from __future__ import annotations

import pickle

from serbench.runner_py.serializers.base import Codec, Serializer


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

    def codec(self, dataset: str) -> Codec:
        return Codec(
            encode=lambda m: pickle.dumps(m, protocol=5),
            decode=pickle.loads,
        )
