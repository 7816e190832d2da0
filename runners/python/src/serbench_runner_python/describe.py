"""`describe`: the runner, its runtime and every serializer with its datasets (section 2)."""

from __future__ import annotations

import platform
import sys
from typing import Any

from serbench_runner_python import PROTOCOL_MINOR, PROTOCOL_VERSION, dataset, model
from serbench_runner_python.serializers import REGISTRY
from serbench_runner_python.serializers.base import NotApplicable, Serializer


def _applicability(serializer: Serializer, name: str) -> dict[str, Any]:
    try:
        serializer.codec(dataset.builtin(name))
    except NotApplicable as exc:
        return {"applicable": False, "reason": str(exc)}
    return {"applicable": True}


def describe() -> dict[str, Any]:
    serializers = []
    for name, s in REGISTRY.items():
        user = {"applicable": False, "reason": s.no_user_data} if s.no_user_data else None
        serializers.append(
            {
                "name": name,
                "format": s.format,
                "library": s.library,
                "version": s.version(),
                "labels": list(s.labels),
                "footprint_bytes": s.footprint_bytes(),
                "datasets": {ds: _applicability(s, ds) for ds in model.builtin_names()},
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
