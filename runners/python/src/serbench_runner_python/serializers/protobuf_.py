"""protobuf (upb) through the classes protoc generates at build time, filled and read by
the conversions the build generates beside them. Users of protobuf hold the generated
messages, so ``encode`` starts from a message and ``decode`` ends with one; the
conversions to and from the tree are outside timing."""

from __future__ import annotations

from serbench_runner_python.dataset import Dataset
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer


def unavailable(dataset: Dataset) -> None:
    """NotApplicable when the dataset's proto schema could not be written (section 7)."""
    entry = dataset.schemas.get("proto") or {}
    if "unavailable" in entry:
        raise NotApplicable(entry["unavailable"])


class Protobuf(Serializer):
    name = "protobuf"
    format = "protobuf"
    distribution = "protobuf"
    labels = ("binary", "schema-required", "copying-decode", "generated")

    def codec(self, dataset: Dataset) -> Codec:
        unavailable(dataset)
        model = dataset.typed()
        if model.PB_ROOT is None:
            raise NotApplicable(model.PB_WHY)
        return Codec(
            encode=model.PB_ROOT.SerializeToString,
            decode=model.PB_ROOT.FromString,
            prepare=model.to_pb,
            to_native=model.from_pb,
            fmt="protobuf",
        )
