"""Registered user datasets: one folder each under ``state_dir()/user/NAME``."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench.paths import state_dir

META = "dataset.json"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


class UnknownUserDataset(ValueError):
    pass


def registry_dir() -> Path:
    return state_dir() / "user"


def folder_of(name: str) -> Path:
    return registry_dir() / name


def validate_name(name: str) -> None:
    from serbench.datasets import DATASETS

    if not _NAME.match(name):
        raise ValueError(
            f"dataset name {name!r}: use letters, digits, '.', '_' and '-' (at most 64)"
        )
    if name in DATASETS:
        raise ValueError(f"dataset name {name!r} is a built-in dataset")


@dataclass
class Entry:
    name: str
    folder: Path
    meta: dict[str, Any]

    def descriptor(self) -> dict[str, Any]:
        """The protocol's dataset object (section 7) with absolute paths."""
        schemas = {}
        for kind, s in self.meta["schemas"].items():
            s = dict(s)
            for key in ("path", "descriptor_set"):
                if key in s:
                    s[key] = str(self.folder / s[key])
            schemas[kind] = s
        return {
            "name": self.name,
            "kind": "user",
            "data": str(self.folder / self.meta["canonical"]),
            "types": str(self.folder / self.meta["types"]),
            "schemas": schemas,
            "expanded_bytes": int(self.meta["bytes"]),
        }


def names() -> list[str]:
    root = registry_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / META).is_file())


def is_registered(name: str) -> bool:
    return bool(_NAME.match(name)) and (folder_of(name) / META).is_file()


def get(name: str) -> Entry:
    folder = folder_of(name)
    try:
        meta = json.loads((folder / META).read_text())
    except (OSError, ValueError):
        raise UnknownUserDataset(f"no user dataset {name!r}") from None
    return Entry(name, folder, meta)


def remove(name: str) -> None:
    if not is_registered(name):
        raise UnknownUserDataset(f"no user dataset {name!r}; registered: {', '.join(names())}")
    shutil.rmtree(folder_of(name))
