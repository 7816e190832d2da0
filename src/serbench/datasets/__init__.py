"""Built-in datasets: the reference scenarios, generated deterministically.

Each dataset is a sequence of ``count`` messages, message ``i`` being
``items[i % len(items)]``. ``framing="single"`` datasets have one message encoded on
its own (an object graph); ``framing="stream"`` datasets encode every message
separately into one framed buffer (see docs/runner-protocol.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from serbench.datasets.spec import FORMAT_VERSION, SCALES, Dataset, DatasetSpec, Framing, Scale

__all__ = ["DATASETS", "FORMAT_VERSION", "SCALES", "Dataset", "DatasetSpec", "Framing", "Scale"]


def _registry() -> dict[str, DatasetSpec]:
    from serbench.datasets import (
        android_users,
        click_maps,
        log_records,
        mesh,
        one_mb_dict,
        pb_vs_msgpack,
    )

    specs = [
        android_users.SPEC,
        *pb_vs_msgpack.SPECS,
        one_mb_dict.SPEC,
        click_maps.SPEC,
        log_records.SPEC,
        mesh.SPEC,
    ]
    return {s.name: s for s in specs}


DATASETS: dict[str, DatasetSpec] = _registry()


class UnknownName(ValueError):
    """A name given on the command line that serbench does not know."""


def get(name: str) -> DatasetSpec:
    try:
        return DATASETS[name]
    except KeyError:
        raise UnknownName(
            f"unknown dataset {name!r}; valid datasets: {', '.join(DATASETS)}"
        ) from None


def load_canonical(path: str | Path) -> dict[str, Any]:
    """Read a canonical dataset file, with a clear error when it is not one."""
    try:
        doc = json.loads(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read dataset file {path}: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("format") != "serbench-dataset":
        raise ValueError(f"{path} is not a serbench dataset file")
    if doc.get("version") != FORMAT_VERSION:
        raise ValueError(f"{path}: dataset format version {doc.get('version')} is not supported")
    return doc
