"""The hand-written layout a careful Python programmer writes with the struct module (the
Parcelable stand-in), generated from the types by the build: generate/handwritten.py."""

from __future__ import annotations

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer


class Handwritten(Serializer):
    name = "handwritten"
    format = "custom-binary"
    labels = ("binary", "handwritten", "copying-decode", "positional", "generated")

    def codec(self, dataset: Dataset) -> Codec:
        model = dataset.typed()
        if model.HW_WHY is not None:
            raise NotApplicable(model.HW_WHY)
        return Codec(encode=model.hw_encode, decode=model.hw_decode, fmt="handwritten")
