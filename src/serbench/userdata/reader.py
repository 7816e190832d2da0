"""Reading a user's .json, .jsonl/.ndjson and .csv files, with exact error positions.

JSON Lines and CSV are streamed line by line; a .json document is read whole (it is
one value). Every problem raises UserDataError naming file, line, column and path:
malformed JSON, invalid UTF-8, duplicate keys, nesting deeper than MAX_DEPTH, numbers
that overflow a double, ragged CSV rows. NaN / Infinity / -Infinity literals (which
Python and JavaScript write) are read as doubles; a UTF-8 byte order mark is skipped.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from serbench.userdata.errors import MAX_DEPTH, PathPart, UserDataError, format_path

SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(
    r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity"
)


def kind_of(path: Path) -> str:
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise UserDataError(
            str(path), f"unknown file type {path.suffix!r}; valid: {', '.join(SUFFIXES)}"
        )
    return kind


class _Duplicate(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Duplicate("duplicate key")
    return d


class Literal(float):
    """NaN / Infinity / -Infinity written as such; a plain float infinity is a number
    literal too large for a double (found and reported by the type stage)."""


_CONSTANTS = {"NaN": Literal("nan"), "Infinity": Literal("inf"), "-Infinity": Literal("-inf")}
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_CONSTANTS.__getitem__)


def _walk(text: str, pos: int = 0) -> Iterator[tuple[int, tuple[PathPart, ...], str]]:
    """(position, path, event) for each value start ("value"), then a "duplicate" key or a
    container opened too "deep"; stops quietly at the first syntax error."""
    parts: list[PathPart] = []
    frames: list[list[Any]] = []  # ["o", seen keys] or ["a", index]
    n = len(text)
    state = "value"
    while True:
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        c = text[pos : pos + 1]
        if state == "value":
            yield pos, tuple(parts), "value"
            if c in ("{", "["):
                if len(frames) >= MAX_DEPTH:
                    yield pos, tuple(parts), "deep"
                    return
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                close = "}" if c == "{" else "]"
                if text[pos : pos + 1] == close:
                    pos += 1
                    state = "after"
                elif c == "{":
                    frames.append(["o", set()])
                    state = "key"
                else:
                    frames.append(["a", 0])
                    parts.append(0)
                continue
            if c == '"':
                try:
                    _, pos = scanstring(text, pos + 1)
                except ValueError:
                    return
            else:
                m = _SCALAR.match(text, pos)
                if not m:
                    return
                pos = m.end()
            state = "after"
        elif state == "key":
            if c != '"':
                return
            try:
                key, end = scanstring(text, pos + 1)
            except ValueError:
                return
            seen = frames[-1][1]
            if key in seen:
                yield pos, (*parts, key), "duplicate"
                return
            seen.add(key)
            parts.append(key)
            pos = _WS.match(text, end).end()  # type: ignore[union-attr]
            if text[pos : pos + 1] != ":":
                return
            pos += 1
            state = "value"
        else:  # after a value
            if not frames or pos >= n:
                return
            frame = frames[-1]
            parts.pop()
            if c == ",":
                pos += 1
                if frame[0] == "o":
                    state = "key"
                else:
                    frame[1] += 1
                    parts.append(frame[1])
                    state = "value"
            elif c == ("}" if frame[0] == "o" else "]"):
                pos += 1
                frames.pop()
            else:
                return


def path_at(text: str, pos: int) -> str:
    """The path of the innermost value that starts at or before ``pos``."""
    best: tuple[PathPart, ...] = ()
    for p, parts, event in _walk(text):
        if p > pos or event != "value":
            break
        best = parts
    return format_path(best)


def position_of(text: str, parts: tuple[PathPart, ...] | list[PathPart]) -> int | None:
    wanted = tuple(parts)
    for p, got, event in _walk(text):
        if event == "value" and got == wanted:
            return p
    return None


def line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _first_problem(text: str) -> tuple[int, tuple[PathPart, ...], str] | None:
    for p, parts, event in _walk(text):
        if event == "duplicate":
            return p, parts, f"duplicate key {parts[-1]!r}"
        if event == "deep":
            return p, parts, f"nesting deeper than {MAX_DEPTH} levels"
    return None


def parse_json(text: str, file: str, line0: int = 1) -> Any:
    """One JSON value; errors carry the file's line (``line0`` is the line of text[0])."""

    def fail(pos: int, message: str, parts: tuple[PathPart, ...] | None = None) -> UserDataError:
        line, col = line_col(text, pos)
        where = format_path(parts) if parts is not None else path_at(text, pos)
        return UserDataError(file, message, line0 + line - 1, col, where)

    problem = None
    if text.count("{") + text.count("[") >= MAX_DEPTH:  # cheap pre-test for deep documents
        problem = _first_problem(text)
        if problem and problem[2].startswith("nesting"):
            raise fail(problem[0], problem[2], problem[1])
    try:
        value, end = _DECODER.raw_decode(text, _WS.match(text).end())  # type: ignore[union-attr]
    except json.JSONDecodeError as exc:
        raise fail(exc.pos, f"malformed JSON: {exc.msg}") from None
    except _Duplicate:
        found = problem or _first_problem(text)
        if found is None:
            raise UserDataError(file, "duplicate key", line0) from None
        raise fail(found[0], found[2], found[1]) from None
    except RecursionError:
        raise UserDataError(file, f"nesting deeper than {MAX_DEPTH} levels", line0) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise UserDataError(file, f"cannot read a number: {exc}", line0) from None
    end = _WS.match(text, end).end()  # type: ignore[union-attr]
    if end != len(text):
        raise fail(end, "malformed JSON: extra data after the value")
    return value


def _decode_utf8(raw: bytes, file: str, line: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        col = len(raw[: exc.start].decode("utf-8", "replace").split("\n")[-1]) + 1
        lines_before = raw.count(b"\n", 0, exc.start)
        raise UserDataError(
            file,
            f"invalid UTF-8 (byte 0x{raw[exc.start]:02x})",
            line + lines_before,
            col if lines_before == 0 else len(raw[: exc.start].split(b"\n")[-1]) + 1,
        ) from None


def read_document(path: Path, digest: Any = None) -> tuple[Any, str]:
    """A .json file: its value and its text (kept to locate later errors); ``digest`` (a
    hashlib object) is updated with the file's bytes."""
    raw = path.read_bytes()
    if digest is not None:
        digest.update(raw)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    text = _decode_utf8(raw, str(path), 1)
    if not text.strip():
        raise UserDataError(str(path), "the file is empty", 1, 1)
    return parse_json(text, str(path)), text


@dataclass
class Record:
    """One record of a stream: the file line it starts on, its text (JSON Lines) and value."""

    line: int
    text: str | None
    value: Any


def count_lines(path: Path) -> int:
    """Non-blank lines (an upper bound on records), counted without parsing."""
    n = 0
    with path.open("rb") as f:
        for raw in f:
            if raw.strip():
                n += 1
    return n


def iter_jsonl(path: Path, keep: set[int] | None = None, digest: Any = None) -> Iterator[Record]:
    """Every record; with ``keep``, only the records at those indices are parsed;
    ``digest`` (a hashlib object) is updated with every line read."""
    file = str(path)
    index = 0
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if digest is not None:
                digest.update(raw)
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if not raw.strip():
                continue
            if keep is None or index in keep:
                try:  # the common case in one step; any problem is located by parse_json
                    text = raw.decode("utf-8")
                    if text.count("{") + text.count("[") >= MAX_DEPTH:
                        raise ValueError("maybe too deep")
                    value = _DECODER.decode(text)
                except ValueError:
                    text = _decode_utf8(raw, file, number)
                    value = parse_json(text, file, number)
                yield Record(number, text, value)
            index += 1


def _decoded_lines(path: Path, digest: Any = None) -> Iterator[str]:
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if digest is not None:
                digest.update(raw)
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            yield _decode_utf8(raw, str(path), number)


def csv_header(path: Path) -> list[str]:
    for _, row in _csv_rows(path, header_only=True):
        return row
    raise UserDataError(str(path), "the file is empty", 1, 1)


def _csv_rows(
    path: Path, header_only: bool = False, digest: Any = None
) -> Iterator[tuple[int, list[str]]]:
    reader = csv.reader(_decoded_lines(path, digest), strict=True)
    try:
        start = 1
        for row in reader:
            yield start, row
            if header_only:
                return
            start = reader.line_num + 1
    except csv.Error as exc:
        raise UserDataError(str(path), f"malformed CSV: {exc}", reader.line_num) from None


def iter_csv(path: Path, digest: Any = None) -> Iterator[Record]:
    """Rows as records keyed by the header; every cell a string (typed later)."""
    file = str(path)
    header: list[str] | None = None
    for line, row in _csv_rows(path, digest=digest):
        if header is None:
            header = row
            seen: set[str] = set()
            for i, name in enumerate(row):
                if name in seen:
                    raise UserDataError(file, f"duplicate column {name!r}", line, i + 1, "$")
                seen.add(name)
            continue
        if not row:  # a blank line
            continue
        if len(row) != len(header):
            col = min(len(row), len(header)) + 1
            extra = "missing" if len(row) < len(header) else "extra"
            raise UserDataError(
                file,
                f"ragged row: {len(row)} fields, the header has {len(header)} ({extra} "
                f"field {col})",
                line,
                col,
                format_path([header[col - 1]]) if col <= len(header) else "$",
            )
        yield Record(line, None, dict(zip(header, row, strict=True)))
    if header is None:
        raise UserDataError(file, "the file is empty", 1, 1)
