"""`serbench datasets add`: read, infer (or apply --types), write, generate schemas, register.

Everything is built in a temporary folder under the registry and renamed into place at
the end, so an error leaves nothing behind. JSON Lines and CSV are read twice (types,
then the canonical file), one record at a time; nothing holds the whole file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from serbench.userdata import reader
from serbench.userdata.canonical import CanonicalWriter, encode_item
from serbench.userdata.errors import UserDataError, ValueProblem, format_path
from serbench.userdata.infer import Summary, infer
from serbench.userdata.registry import META, Entry, folder_of, registry_dir, validate_name
from serbench.userdata.schemas import identifier, write_schemas
from serbench.userdata.types import ListOf, Types, TypesFileError, converter, load_types

AS_CHOICES = ("document", "stream")


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def sample_indices(total: int, n: int | None) -> set[int] | None:
    """Evenly spaced, deterministic: n of total indices (None: all)."""
    if n is None or n >= total:
        return None
    if n < 1:
        raise ValueError("--sample must be at least 1")
    return {i * total // n for i in range(n)}


def _read_types(path: Path) -> Types:
    text = path.read_text(encoding="utf-8")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserDataError(
            str(path), f"malformed JSON: {exc.msg}", exc.lineno, exc.colno
        ) from None
    try:
        return load_types(doc)
    except TypesFileError as exc:
        raise UserDataError(str(path), str(exc)) from None


class _Source:
    """The records (or the one document) of a user file, each with a way to locate a path."""

    def __init__(self, path: Path, framing: str, sample: int | None) -> None:
        self.path, self.framing, self.sample = path, framing, sample
        self.kind = reader.kind_of(path)
        self.csv = self.kind == "csv"
        self.notes: list[str] = []
        self.doc: Any = None
        self.text = ""
        self.keep: set[int] | None = None
        self.total = 0
        if self.kind == "json":
            self.doc, self.text = reader.read_document(path)
            if framing == "stream":
                if not isinstance(self.doc, list):
                    raise UserDataError(str(path), "--as stream needs a top-level array", 1, 1, "$")
                self.total = len(self.doc)
                self.keep = sample_indices(self.total, sample)
            else:
                self.doc = self._sample_document(self.doc)
        elif self.kind == "jsonl" and sample is not None:
            self.total = reader.count_lines(path)
            self.keep = sample_indices(self.total, sample)

    def _sample_document(self, doc: Any) -> Any:
        if self.sample is None:
            return doc
        if isinstance(doc, list):
            keep = sample_indices(len(doc), self.sample)
            if keep is not None:
                self.notes.append(f"sampled {len(keep)} of {len(doc)} elements of $")
                return [x for i, x in enumerate(doc) if i in keep]
            return doc
        if isinstance(doc, dict):
            out = {}
            for k, v in doc.items():
                keep = sample_indices(len(v), self.sample) if isinstance(v, list) else None
                if keep is not None:
                    self.notes.append(
                        f"sampled {len(keep)} of {len(v)} elements of {format_path([k])}"
                    )
                    v = [x for i, x in enumerate(v) if i in keep]
                out[k] = v
            return out
        return doc

    def records(
        self, validate_all: bool
    ) -> Iterator[tuple[int, Any, Callable[[ValueProblem], UserDataError]]]:
        """(index, value, locate) for each kept record of a stream (or document rows)."""
        if self.kind == "json":
            for i, v in enumerate(self.doc):
                if self.keep is None or i in self.keep:
                    yield i, v, self._locator_doc(i)
            return
        if self.kind == "jsonl":
            if validate_all or self.keep is None:
                for i, rec in enumerate(reader.iter_jsonl(self.path)):
                    if self.keep is None or i in self.keep:
                        yield i, rec.value, self._locator_line(rec)
            else:
                chosen = sorted(self.keep)
                for i, rec in zip(chosen, reader.iter_jsonl(self.path, self.keep), strict=True):
                    yield i, rec.value, self._locator_line(rec)
            return
        header = reader.csv_header(self.path)
        for i, rec in enumerate(reader.iter_csv(self.path)):
            if self.keep is None or i in self.keep:
                yield i, rec.value, self._locator_csv(rec, header)

    def _locator_doc(self, index: int | None) -> Callable[[ValueProblem], UserDataError]:
        def locate(exc: ValueProblem) -> UserDataError:
            parts = exc.parts if index is None else [index, *exc.parts]
            pos = reader.position_of(self.text, parts)
            line, col = reader.line_col(self.text, pos) if pos is not None else (None, None)
            return UserDataError(str(self.path), exc.message, line, col, format_path(parts))

        return locate

    def _locator_line(self, rec: reader.Record) -> Callable[[ValueProblem], UserDataError]:
        def locate(exc: ValueProblem) -> UserDataError:
            pos = reader.position_of(rec.text or "", exc.parts)
            col = reader.line_col(rec.text or "", pos)[1] if pos is not None else None
            return UserDataError(str(self.path), exc.message, rec.line, col, format_path(exc.parts))

        return locate

    def _locator_csv(
        self, rec: reader.Record, header: list[str]
    ) -> Callable[[ValueProblem], UserDataError]:
        def locate(exc: ValueProblem) -> UserDataError:
            col = header.index(exc.parts[0]) + 1 if exc.parts and exc.parts[0] in header else None
            return UserDataError(str(self.path), exc.message, rec.line, col, format_path(exc.parts))

        return locate


def _hint(name: str) -> str:
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", name) if p]
    hint = "".join(p[:1].upper() + p[1:] for p in parts) or "Record"
    return hint if hint[0].isalpha() else "R" + hint


def _infer(src: _Source, name: str) -> Types:
    top = Summary()
    if src.framing == "single" and src.kind == "json":
        try:
            top.add(src.doc)
        except ValueProblem as exc:
            raise src._locator_doc(None)(exc) from None
        return infer(top, _hint(name))
    for _, value, locate in src.records(validate_all=True):
        try:
            if src.csv:
                for k, cell in value.items():
                    if top.fields is not None and k not in top.fields:
                        top.fields[k] = Summary()
                        top.present[k] = 0
                    top.present[k] += 1
                    top.fields[k].add_csv(cell)  # type: ignore[index]
                top.objects += 1
            else:
                top.add(value)
        except ValueProblem as exc:
            raise locate(exc) from None
    if top.objects + top.lists + top.ints + top.floats + top.strings + top.bools + top.nulls == 0:
        raise UserDataError(str(src.path), "no records")
    if src.framing == "single":  # records as one document: a list of them
        root = Summary()
        root.lists, root.items = 1, top
        return infer(root, _hint(name), csv=src.csv)
    return infer(top, _hint(name), csv=src.csv)


def _write(src: _Source, types: Types, name: str, target: Path) -> tuple[int, int, str]:
    """Write the canonical file; (count, bytes, sha256)."""
    if src.framing == "single" and src.kind == "json":
        with CanonicalWriter(target, name, "single", 1) as w:
            try:
                w.item(converter(types.message)(src.doc))
            except ValueProblem as exc:
                raise src._locator_doc(None)(exc) from None
        return 1, w.size, w.sha256
    if src.framing == "single":
        if not isinstance(types.message, ListOf):
            raise UserDataError(
                str(src.path),
                f"--as document reads the records as a list, but the types "
                f"say the message is {types.message}",
            )
        convert = converter(types.message.of, src.csv)
    else:
        convert = converter(types.message, src.csv)
    count = len(src.keep) if src.keep is not None else sum(1 for _ in _count(src))
    framing_count = 1 if src.framing == "single" else count
    with CanonicalWriter(target, name, src.framing, framing_count) as w:
        if src.framing == "single":
            w.raw(b"[")
        n = 0
        for _, value, locate in src.records(validate_all=False):
            try:
                blob = convert(value)
                if src.framing == "single":
                    w.raw((b"," if n else b"") + encode_item(blob))
                else:
                    w.item(blob)
            except ValueProblem as exc:
                raise locate(exc) from None
            n += 1
        if src.framing == "single":
            w.raw(b"]")
    if n == 0:
        raise UserDataError(str(src.path), "no records")
    return count, w.size, w.sha256


def _count(src: _Source) -> Iterator[None]:
    if src.kind == "json":
        yield from (None for _ in src.doc)
    elif src.kind == "jsonl":
        yield from (None for _ in range(reader.count_lines(src.path)))
    else:
        yield from (None for _ in reader.iter_csv(src.path))


def add(
    name: str,
    file: Path,
    as_: str | None = None,
    types_file: Path | None = None,
    sample: int | None = None,
) -> Entry:
    """Register ``file`` as user dataset ``name`` (replacing an earlier one of that name)."""
    validate_name(name)
    file = Path(file).resolve()
    if not file.is_file():
        raise UserDataError(str(file), "no such file")
    if as_ is not None and as_ not in AS_CHOICES:
        raise UserDataError(str(file), f"--as {as_!r}: valid: {', '.join(AS_CHOICES)}")
    if sample is not None and sample < 1:
        raise UserDataError(str(file), "--sample must be at least 1")
    kind = reader.kind_of(file)
    framing = {"document": "single", "stream": "stream"}.get(
        as_ or "", "single" if kind == "json" else "stream"
    )
    started = time.monotonic()
    declared = _read_types(Path(types_file)) if types_file else None
    root = registry_dir()
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".tmp-{name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        src = _Source(file, framing, sample)
        types = declared or _infer(src, name)
        canonical_tmp = tmp / "canonical.tmp"
        count, size, sha = _write(src, types, name, canonical_tmp)
        canonical = f"{name}.{sha[:16]}.json"
        canonical_tmp.rename(tmp / canonical)
        (tmp / f"{name}.types.json").write_text(_types_text(types))
        schemas = write_schemas(types, tmp, name, f"serbench.user.{identifier(name).lower()}")
        meta = {
            "name": name,
            "source": str(file),
            "source_sha256": file_sha256(file),
            "source_bytes": file.stat().st_size,
            "options": {
                "as": as_,
                "types": str(types_file) if types_file else None,
                "sample": sample,
            },
            "framing": framing,
            "count": count,
            "canonical": canonical,
            "bytes": size,
            "sha256": sha,
            "types": f"{name}.types.json",
            "types_from": str(types_file) if types_file else "inferred",
            "schemas": schemas,
            "notes": src.notes,
            "seconds": round(time.monotonic() - started, 3),
        }
        (tmp / META).write_text(json.dumps(meta, indent=1) + "\n")
        target = folder_of(name)
        old = root / f".old-{name}-{os.getpid()}"
        if target.exists():
            target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Entry(name, target, meta)


def _types_text(types: Types) -> str:
    doc = types.as_json()
    lines = ["{", f'  "message": {json.dumps(doc["message"])},', '  "types": {']
    items = list(doc["types"].items())
    for i, (k, v) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"
