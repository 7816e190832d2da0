"""The canonical file of a user dataset, written item by item with its sha256."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from serbench.userdata.errors import PathPart, ValueProblem
from serbench.userdata.types import float_text

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


def _specials(v: Any) -> Any:
    """NaN / Infinity literals (reader.Literal, a float) as their canonical strings."""
    if isinstance(v, float):
        return float_text(v)
    if isinstance(v, list):
        return [_specials(x) for x in v]
    if isinstance(v, dict):
        return {k: _specials(x) for k, x in v.items()}
    return v


def encode_raw(item: Any) -> bytes:
    """A value as read, whatever its type turns out to be: integers stay integers, floats
    floats, NaN and the infinities their strings (the canonical form of float64)."""
    try:
        return encode_item(item)
    except ValueError as exc:
        if isinstance(exc, ValueProblem):
            raise
        return encode_item(_specials(item))


def header(name: str, framing: str, count: int) -> bytes:
    head = {
        "format": "serbench-dataset",
        "version": 1,
        "name": name,
        "scenario": "user",
        "scale": "user",
        "framing": framing,
        "count": count,
    }
    return _DUMPS(head)[:-1].encode() + b',"items":['


class Body:
    """The items of a canonical file, written before their count is known, one a line
    (a canonical item never holds a newline byte: JSON escapes it in strings); ``finish``
    puts the envelope around them, commas between them, hashed on the way."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = path.open("wb", buffering=1 << 20)
        self.items = 0

    def item(self, blob: bytes) -> None:
        self.file.write(blob + b"\n")
        self.items += 1

    def close(self) -> None:
        self.file.close()

    def finish(
        self,
        target: Path,
        name: str,
        framing: str,
        count: int,
        fix: Callable[[Any], Any] | None = None,
        upto: int = 0,
        as_list: bool = False,
    ) -> tuple[int, str]:
        """Write ``target``; (bytes, sha256). ``fix`` rewrites the first ``upto`` items
        (read back from the body); ``as_list``: the items are one message, a list."""
        self.close()
        sha = hashlib.sha256()
        size = 0

        def emit(blob: bytes) -> None:
            nonlocal size
            sha.update(blob)
            out.write(blob)
            size += len(blob)

        with target.open("wb") as out, self.path.open("rb", buffering=1 << 20) as body:
            emit(header(name, framing, count))
            if as_list:
                emit(b"[")
            for i in range(min(upto, self.items) if fix is not None else 0):
                last = i == self.items - 1
                emit(encode_item(fix(json.loads(body.readline()))) + (b"" if last else b","))
            carry = b""  # the separator after the last item is dropped
            for chunk in iter(lambda: body.read(1 << 20), b""):
                emit(carry + chunk[:-1].replace(b"\n", b","))
                carry = b"," if chunk.endswith(b"\n") else chunk[-1:]
            if as_list:
                emit(b"]")
            emit(b"]}")
        self.path.unlink()
        return size, sha.hexdigest()


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
