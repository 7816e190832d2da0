"""`describe`: the runner, its runtime and every serializer with its datasets (section 2)."""

from __future__ import annotations

import platform
import sys
from typing import Any

from serbench_runner_python import PROTOCOL_MINOR, PROTOCOL_VERSION, dataset, model
from serbench_runner_python.framing import CONCATENATED, concatenates
from serbench_runner_python.serializers import REGISTRY
from serbench_runner_python.serializers.base import Codec, NotApplicable, Serializer


def _codec(serializer: Serializer, name: str) -> Codec | str:
    """The serializer's codec for a built-in dataset, or why it has none."""
    try:
        return serializer.codec(dataset.builtin(name))
    except NotApplicable as exc:
        return str(exc)


def _applicability(codec: Codec | str) -> dict[str, Any]:
    if isinstance(codec, str):
        return {"applicable": False, "reason": codec}
    return {"applicable": True}


def _labels(serializer: Serializer, codecs: list[Codec | str]) -> list[str]:
    """The serializer's labels, with the stream framing its codecs follow (section 6)."""
    labels = list(serializer.labels)
    if any(isinstance(c, Codec) and concatenates(c) for c in codecs):
        labels.append(CONCATENATED)
    return labels


def describe() -> dict[str, Any]:
    serializers = []
    for name, s in REGISTRY.items():
        user = {"applicable": False, "reason": s.no_user_data} if s.no_user_data else None
        codecs = {ds: _codec(s, ds) for ds in model.builtin_names()}
        serializers.append(
            {
                "name": name,
                "format": s.format,
                "library": s.library,
                "version": s.version(),
                "labels": _labels(s, list(codecs.values())),
                "footprint_bytes": s.footprint_bytes(),
                "datasets": {ds: _applicability(c) for ds, c in codecs.items()},
                "user_datasets": user or {"applicable": True},
            }
        )
    return {
        "protocol": PROTOCOL_VERSION,
        "protocol_minor": PROTOCOL_MINOR,
        "runner": "python",
        "language": "python",
        "runtime": {
            "name": platform.python_implementation(),
            "version": platform.python_version(),
            "details": sys.version.replace("\n", " "),
        },
        "serializers": serializers,
        "capabilities": [
            "transport",
            "decode_from",
            "user_datasets",
            "untrusted",
            "avro_container",
        ],
    }
