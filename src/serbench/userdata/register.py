"""`serbench datasets add`: read, infer (or apply --types), write, generate schemas, register.

Everything is built in a temporary folder under the registry and renamed into place at
the end, so an error leaves nothing behind. JSON Lines and CSV are read once, one
record at a time (types inferred while the canonical file is written; a second read only
where the inferred types change the canonical form); nothing holds the whole file.
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
from serbench.userdata.canonical import Body, CanonicalWriter, encode_item, encode_raw
from serbench.userdata.errors import UserDataError, ValueProblem, format_path
from serbench.userdata.infer import Summary, infer, needs_conversion
from serbench.userdata.registry import META, Entry, folder_of, registry_dir, validate_name
from serbench.userdata.schemas import SCHEMAS_VERSION, identifier, write_schemas
from serbench.userdata.types import (
    ListOf,
    Types,
    TypesFileError,
    converter,
    csv_scalar,
    load_types,
)

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
        self.digest = hashlib.sha256()  # of the file, while it is read in full
        self.hashed = False
        if self.kind == "json":
            self.doc, self.text = reader.read_document(path, self.digest)
            self.hashed = True
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
        digest = None if self.hashed else self.digest
        if self.kind == "jsonl":
            if validate_all or self.keep is None:
                for i, rec in enumerate(reader.iter_jsonl(self.path, digest=digest)):
                    if self.keep is None or i in self.keep:
                        yield i, rec.value, self._locator_line(rec)
                self.hashed = True
            else:
                chosen = sorted(self.keep)
                for i, rec in zip(chosen, reader.iter_jsonl(self.path, self.keep), strict=True):
                    yield i, rec.value, self._locator_line(rec)
            return
        header = reader.csv_header(self.path)
        for i, rec in enumerate(reader.iter_csv(self.path, digest)):
            if self.keep is None or i in self.keep:
                yield i, rec.value, self._locator_csv(rec, header)
        self.hashed = True

    def sha256(self) -> str:
        """The file's sha256: from the full read if there was one, else read for it."""
        return self.digest.hexdigest() if self.hashed else file_sha256(self.path)

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
                _add_csv_row(top, value)
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
    """Write the canonical file with known types, in one pass; (count, bytes, sha256)."""
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
    body = Body(target.with_suffix(".body"))
    try:
        for _, value, locate in src.records(validate_all=False):
            try:
                body.item(encode_item(convert(value)))
            except ValueProblem as exc:
                raise locate(exc) from None
    finally:
        body.close()
    return _finish(src, body, name, target)


def _finish(
    src: _Source,
    body: Body,
    name: str,
    target: Path,
    fix: Callable[[Any], Any] | None = None,
    upto: int = 0,
) -> tuple[int, int, str]:
    count = body.items
    if count == 0:
        body.close()
        body.path.unlink()
        raise UserDataError(str(src.path), "no records")
    if src.framing == "single":  # the records as one list: one message
        size, sha = body.finish(target, name, "single", 1, fix, upto, as_list=True)
    else:
        size, sha = body.finish(target, name, "stream", count, fix, upto)
    return count, size, sha


def _infer_and_write(src: _Source, name: str, target: Path) -> tuple[Types, int, int, str]:
    """Streams (JSON Lines, CSV) in one read: each record is validated, summarized and
    written as read (integers and floats keep their kind; the types do not change the
    canonical form). A record missing fields that earlier records had gets them as null
    on the way (Summary); the few records written before a field first appeared are
    rewritten from the canonical body at the end. Only when the types change values
    (integers beside floats become floats, CSV text beside numbers stays text) is the
    file read a second time, through the converter."""
    top = Summary()
    body = Body(target.with_suffix(".body"))
    csv_row = _csv_raw if src.csv else None
    late0, unsafe0 = Summary.late, Summary.unsafe
    upto = 0  # the records written before the last field that appeared late
    try:
        for i, value, locate in src.records(validate_all=True):
            try:
                if csv_row is not None:
                    _add_csv_row(top, value)
                    value = csv_row(value)
                else:
                    late = Summary.late
                    top.add(value)
                    if Summary.late != late:
                        upto = body.items
                if src.keep is None or i in src.keep:
                    body.item(encode_raw(value))
            except ValueProblem as exc:
                raise locate(exc) from None
    finally:
        body.close()
    if top.objects + top.lists + top.ints + top.floats + top.strings + top.bools + top.nulls == 0:
        body.path.unlink()
        raise UserDataError(str(src.path), "no records")
    if src.framing == "single":
        root = Summary()
        root.lists, root.items = 1, top
        types = infer(root, _hint(name), csv=src.csv)
    else:
        types = infer(top, _hint(name), csv=src.csv)
    if needs_conversion(top, src.csv) or Summary.unsafe != unsafe0:
        body.path.unlink()
        return (types, *_write(src, types, name, target))
    if Summary.late == late0:
        upto = 0
    message = types.message
    if src.framing == "single" and isinstance(message, ListOf):
        message = message.of
    return (types, *_finish(src, body, name, target, converter(message), upto))


def _add_csv_row(top: Summary, row: dict[str, str]) -> None:
    fields = top.fields
    for k, cell in row.items():
        if fields is not None and k not in fields:
            fields[k] = Summary()
            top.absent[k] = top.objects
        try:
            fields[k].add_csv(cell)  # type: ignore[index]
        except ValueProblem as exc:
            raise exc.at(k) from None
    top.objects += 1


def _csv_raw(row: dict[str, str]) -> dict[str, Any]:
    return {k: csv_scalar(cell) for k, cell in row.items()}


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
        canonical_tmp = tmp / "canonical.tmp"
        if declared is None and src.kind != "json":
            types, count, size, sha = _infer_and_write(src, name, canonical_tmp)
        else:
            types = declared or _infer(src, name)
            count, size, sha = _write(src, types, name, canonical_tmp)
        canonical = f"{name}.{sha[:16]}.json"
        canonical_tmp.rename(tmp / canonical)
        (tmp / f"{name}.types.json").write_text(_types_text(types))
        schemas = write_schemas(types, tmp, name, f"serbench.user.{identifier(name).lower()}")
        meta = {
            "name": name,
            "source": str(file),
            "source_sha256": src.sha256(),
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
            "schemas_version": SCHEMAS_VERSION,
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


def stem_name(file: Path) -> str:
    """`run --data FILE`'s dataset name: the file's stem, reduced to a valid name."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", Path(file).stem).lstrip(".-_") or "data"


def is_current(
    name: str, file: Path, as_: str | None, types_file: Path | None, sample: int | None
) -> bool:
    """``name`` is registered from this very file, with these options, by this version of the
    schema generator: registering it again would change nothing."""
    if not (folder_of(name) / META).is_file() or not Path(file).is_file():
        return False
    meta = json.loads((folder_of(name) / META).read_text())
    options = {"as": as_, "types": str(types_file) if types_file else None, "sample": sample}
    return (
        meta.get("source_sha256") == file_sha256(Path(file))
        and meta.get("schemas_version") == SCHEMAS_VERSION
        and meta.get("options") == options
    )
