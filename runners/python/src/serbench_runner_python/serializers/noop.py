"""The no-op baseline: the harness's own overhead through the same loop and framing."""

from __future__ import annotations

import itertools
from typing import Any

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, Serializer

_BLOB = b"\x00" * 8


class Noop(Serializer):
    name = "noop"
    format = "none"
    labels = ("baseline",)

    def codec(self, dataset: Dataset) -> Codec:
        originals: list[Any] = []
        cycle: list[Any] = [None]

        def prepare(message: Any) -> Any:
            originals.append(message)
            cycle[0] = itertools.cycle(originals)
            return message

        def decode(_data: Any) -> Any:
            # Streams are read in order, so the n-th decode returns the n-th original.
            return next(cycle[0])

        return Codec(encode=lambda _m: _BLOB, decode=decode, prepare=prepare, fmt="noop")
