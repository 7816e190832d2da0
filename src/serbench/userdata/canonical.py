"""The canonical file of a user dataset, written item by item with its sha256."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import TracebackType
from typing import Any

from serbench.userdata.errors import PathPart, ValueProblem

_DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def _surrogate(v: Any, parts: list[PathPart]) -> list[PathPart] | None:
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            return parts
    elif isinstance(v, list):
        for i, x in enumerate(v):
            found = _surrogate(x, [*parts, i])
            if found is not None:
                return found
    elif isinstance(v, dict):
        for k, x in v.items():
            found = _surrogate(k, [*parts, k]) or _surrogate(x, [*parts, k])
            if found is not None:
                return found
    return None


def encode_item(item: Any) -> bytes:
    try:
        return _DUMPS(item).encode("utf-8")
    except UnicodeEncodeError:
        exc = ValueProblem("a lone surrogate (\\ud800-\\udfff) is not a Unicode scalar value")
        exc.parts = _surrogate(item, []) or []
        raise exc from None


class CanonicalWriter:
    """``with CanonicalWriter(path, name, framing, count) as w: w.item(value)``."""

    def __init__(self, path: Path, name: str, framing: str, count: int) -> None:
        self.path = path
        self.sha = hashlib.sha256()
        self.size = 0
        self.items = 0
        self.file = path.open("wb")
        head = {
            "format": "serbench-dataset",
            "version": 1,
            "name": name,
            "scenario": "user",
            "scale": "user",
            "framing": framing,
            "count": count,
        }
        self._write(_DUMPS(head)[:-1].encode() + b',"items":[')

    def _write(self, blob: bytes) -> None:
        self.sha.update(blob)
        self.size += len(blob)
        self.file.write(blob)

    def raw(self, blob: bytes) -> None:
        self._write(blob)

    def item(self, value: Any) -> None:
        blob = encode_item(value)
        self._write(b"," + blob if self.items else blob)
        self.items += 1

    def __enter__(self) -> CanonicalWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is None:
            self._write(b"]}")
        self.file.close()

    @property
    def sha256(self) -> str:
        return self.sha.hexdigest()
