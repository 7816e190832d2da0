"""What a built-in dataset is: its spec, one generated instance, the canonical file."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from serbench.paths import data_dir

Scale = Literal["quick", "standard", "full"]
SCALES: tuple[str, ...] = ("quick", "standard", "full")
Framing = Literal["single", "stream"]
FORMAT_VERSION = 1


@dataclass(frozen=True)
class DatasetSpec:
    """A built-in dataset: how to generate it and what it reproduces."""

    name: str
    scenario: str
    title: str
    framing: Framing
    generate: Callable[[Scale], tuple[list[Any], int]]
    schema_dir: str
    timestamp_fields: tuple[str, ...] = field(default=())

    def build(self, scale: Scale) -> Dataset:
        items, count = self.generate(scale)
        return Dataset(self, scale, items, count)


@dataclass
class Dataset:
    spec: DatasetSpec
    scale: Scale
    items: list[Any]
    count: int

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def records(self) -> int:
        """Messages of a stream, or elements of a single message that is a list."""
        if self.spec.framing == "stream":
            return self.count
        root = self.items[0]
        return len(root) if isinstance(root, list) else 1

    def canonical(self) -> dict[str, Any]:
        return {
            "format": "serbench-dataset",
            "version": FORMAT_VERSION,
            "name": self.spec.name,
            "scenario": self.spec.scenario,
            "scale": self.scale,
            "framing": self.spec.framing,
            "count": self.count,
            "items": self.items,
        }

    def canonical_bytes(self) -> bytes:
        return json.dumps(self.canonical(), separators=(",", ":"), ensure_ascii=False).encode()

    def sha256(self) -> str:
        return hashlib.sha256(self.canonical_bytes()).hexdigest()

    def path(self) -> Path:
        """The canonical file every runner reads; written once per content hash."""
        blob = self.canonical_bytes()
        digest = hashlib.sha256(blob).hexdigest()[:16]
        target = data_dir() / self.scale / f"{self.name}.{digest}.json"
        if not target.exists():
            # A unique temporary name: several processes may write the same file at once.
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_bytes(blob)
            tmp.replace(target)
        return target
