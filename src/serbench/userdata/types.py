"""The types language (datasets/README.md plus protocol section 7) as a tree, and the
conversion of a user's values into canonical values of a declared type.

A converter raises ValueProblem (its path filled in on the way up) when a value
contradicts its type. CSV cells are strings: with ``csv=True`` the leaves parse them.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from serbench.userdata.errors import ValueProblem

PRIMITIVES = (
    "null",
    "bool",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "bigint",
    "float32",
    "float64",
    "string",
    "bytes",
    "timestamp_ms",
    "any",
)
INT_RANGES = {
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
}
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Prim:
    """A primitive; ``why`` (``any`` only) says which kinds were mixed, for messages."""

    name: str
    why: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ListOf:
    of: Type

    def __str__(self) -> str:
        return f"list<{self.of}>"


@dataclass(frozen=True)
class MapOf:
    of: Type

    def __str__(self) -> str:
        return f"map<string,{self.of}>"


@dataclass(frozen=True)
class Optional:
    of: Type

    def __str__(self) -> str:
        return f"optional<{self.of}>"


@dataclass(eq=False)
class Enum:
    name: str
    symbols: list[str]

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False)
class Record:
    name: str
    fields: list[tuple[str, Type]] = field(default_factory=list)

    def __str__(self) -> str:
        return self.name


Type = Prim | ListOf | MapOf | Optional | Enum | Record


class TypesFileError(ValueError):
    pass


def parse(text: str, named: dict[str, Enum | Record]) -> Type:
    t = text.replace(" ", "")
    for prefix, ctor in (("list<", ListOf), ("map<string,", MapOf), ("optional<", Optional)):
        if t.startswith(prefix):
            if not t.endswith(">"):
                raise TypesFileError(f"type {text!r} lacks its closing '>'")
            return ctor(parse(t[len(prefix) : -1], named))  # type: ignore[abstract]
    if t in PRIMITIVES:
        return Prim(t)
    if t in named:
        return named[t]
    valid = ", ".join(PRIMITIVES)
    raise TypesFileError(
        f"unknown type {text!r}; valid: {valid}, list<T>, map<string,T>, optional<T> "
        f'and the names under "types"'
    )


@dataclass
class Types:
    message: Type
    named: dict[str, Enum | Record]

    def as_json(self) -> dict[str, Any]:
        types: dict[str, Any] = {}
        for name, t in self.named.items():
            if isinstance(t, Enum):
                types[name] = {"enum": list(t.symbols)}
            else:
                types[name] = {"record": [[k, str(v)] for k, v in t.fields]}
        return {"message": str(self.message), "types": types}


def load_types(doc: Any) -> Types:
    """A types.json document -> Types; TypesFileError says what is wrong with it."""
    if not isinstance(doc, dict) or not isinstance(doc.get("message"), str):
        raise TypesFileError('a types file is {"message": TYPE, "types": {NAME: ...}}')
    raw = doc.get("types") or {}
    named: dict[str, Enum | Record] = {}
    for name, spec in raw.items():
        if name in PRIMITIVES:
            raise TypesFileError(f"type name {name!r} is a built-in type")
        if isinstance(spec, dict) and isinstance(spec.get("enum"), list):
            symbols = spec["enum"]
            if not symbols or len(set(symbols)) != len(symbols):
                raise TypesFileError(f"enum {name}: symbols must be distinct and not empty")
            named[name] = Enum(name, [str(s) for s in symbols])
        elif isinstance(spec, dict) and isinstance(spec.get("record"), list):
            named[name] = Record(name)
        else:
            raise TypesFileError(
                f'{name}: expected {{"record": [[field, type], ...]}} or {{"enum": [symbol, ...]}}'
            )
    for name, spec in raw.items():
        record = named[name]
        if isinstance(record, Record):
            keys: set[str] = set()
            for pair in spec["record"]:
                if not (isinstance(pair, list) and len(pair) == 2):
                    raise TypesFileError(f"{name}: a field is [name, type], got {pair!r}")
                if pair[0] in keys:
                    raise TypesFileError(f"{name}: field {pair[0]!r} twice")
                keys.add(pair[0])
                try:
                    record.fields.append((str(pair[0]), parse(str(pair[1]), named)))
                except TypesFileError as exc:
                    raise TypesFileError(f"{name}.{pair[0]}: {exc}") from None
    _no_cycles(named)
    return Types(parse(doc["message"], named), named)


def _no_cycles(named: dict[str, Enum | Record]) -> None:
    state: dict[str, int] = {}

    def visit(t: Type) -> None:
        if isinstance(t, (ListOf, MapOf, Optional)):
            visit(t.of)
        elif isinstance(t, Record):
            if state.get(t.name) == 1:
                raise TypesFileError(f"record {t.name} contains itself (recursion is not allowed)")
            if state.get(t.name) == 2:
                return
            state[t.name] = 1
            for _, f in t.fields:
                visit(f)
            state[t.name] = 2

    for t in named.values():
        visit(t)


# ---- converting values ---------------------------------------------------------------

Converter = Callable[[Any], Any]
_CSV_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_CSV_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_FLOAT32 = struct.Struct("<f")


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    return {int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(v), type(v).__name__
    )


def _bad(v: Any, t: str) -> ValueProblem:
    shown = repr(v) if not isinstance(v, (list, dict)) else _kind(v)
    return ValueProblem(f"{_kind(v)} {shown[:60]} is not {t}")


def float_text(v: float) -> Any:
    """A double's canonical JSON form: NaN and the infinities as strings, -0.0 kept."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def to_float32(v: float) -> float:
    try:
        return _FLOAT32.unpack(_FLOAT32.pack(v))[0]
    except OverflowError:
        raise ValueProblem(f"{v!r} is out of float32 range") from None


def _timestamp(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        if not -(2**63) <= v < 2**63:
            raise ValueProblem(f"timestamp {v} is out of int64 range")
        return v
    if isinstance(v, str):
        try:
            when = datetime.fromisoformat(v)
        except ValueError:
            raise ValueProblem(f"string {v[:40]!r} is not an ISO-8601 date-time") from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        if when.microsecond % 1000:
            raise ValueProblem(f"{v!r} has sub-millisecond digits a timestamp_ms drops")
        delta = when - datetime(1970, 1, 1, tzinfo=UTC)
        return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000
    raise _bad(v, "a timestamp (epoch milliseconds or an ISO-8601 string)")


def _any(v: Any) -> Any:
    """Any JSON value, checked for what canonical JSON cannot hold (NaN, infinities)."""
    if isinstance(v, float):
        if type(v) is float and math.isinf(v):
            raise ValueProblem("number overflows a double")
        if math.isnan(v) or math.isinf(v):
            raise ValueProblem(f"{v} in a value of type any (declare it float64)")
        return v
    if isinstance(v, list):
        for i, x in enumerate(v):
            try:
                _any(x)
            except ValueProblem as exc:
                raise exc.at(i) from None
    elif isinstance(v, dict):
        for k, x in v.items():
            try:
                _any(x)
            except ValueProblem as exc:
                raise exc.at(k) from None
    return v


def csv_scalar(raw: str) -> Any:
    if raw == "":
        return None
    if raw in ("true", "false"):
        return raw == "true"
    if _CSV_INT.match(raw):
        return int(raw)
    if _CSV_FLOAT.match(raw) or raw in _SPECIAL:
        return _SPECIAL[raw] if raw in _SPECIAL else float(raw)
    return raw


def _prim(name: str, csv: bool) -> Converter:  # noqa: C901 - one branch per primitive
    if name == "any":
        return (lambda v: _any(csv_scalar(v))) if csv else _any
    if name == "null":

        def null(v: Any) -> None:
            if v is None or (csv and v == ""):
                return None
            raise _bad(v, "null")

        return null
    if name == "bool":

        def boolean(v: Any) -> bool:
            if csv and v in ("true", "false"):
                return v == "true"
            if isinstance(v, bool):
                return v
            raise _bad(v, "bool")

        return boolean
    if name in INT_RANGES or name == "bigint":
        low, high = INT_RANGES.get(name, (None, None))

        def integer(v: Any) -> int:
            if csv and isinstance(v, str) and _CSV_INT.match(v):
                v = int(v)
            if not isinstance(v, int) or isinstance(v, bool):
                raise _bad(v, name)
            if low is not None and not low <= v <= high:  # type: ignore[operator]
                raise ValueProblem(f"{v} is out of {name} range")
            return v

        return integer
    if name in ("float32", "float64"):
        single = name == "float32"

        def number(v: Any) -> Any:
            if isinstance(v, str) and (v in _SPECIAL or (csv and _CSV_FLOAT.match(v))):
                v = _SPECIAL[v] if v in _SPECIAL else float(v)
            if isinstance(v, int) and not isinstance(v, bool):
                if abs(v) > 2**53:
                    raise ValueProblem(f"integer {v} is not exact as {name}")
                v = float(v)
            if not isinstance(v, float):
                raise _bad(v, name)
            if type(v) is float and math.isinf(v):
                raise ValueProblem("number overflows a double")
            if single and not math.isnan(v) and not math.isinf(v):
                v = to_float32(v)
            return float_text(v)

        return number
    if name == "string":

        def string(v: Any) -> str:
            if isinstance(v, str):
                return v
            raise _bad(v, "string")

        return string
    if name == "bytes":

        def blob(v: Any) -> str:
            if not isinstance(v, str):
                raise _bad(v, "bytes (a base64 string)")
            try:
                data = base64.b64decode(v, validate=True)
            except (binascii.Error, ValueError):
                raise ValueProblem(f"string {v[:40]!r} is not base64") from None
            return base64.b64encode(data).decode("ascii")

        return blob
    if name == "timestamp_ms":
        if csv:
            return lambda v: _timestamp(int(v) if _CSV_INT.match(v) else v)
        return _timestamp
    raise AssertionError(name)


def converter(t: Type, csv: bool = False) -> Converter:
    """value -> canonical value of type ``t`` (CSV: string cells parsed at the leaves)."""
    if isinstance(t, Prim):
        return _prim(t.name, csv)
    if isinstance(t, Optional):
        inner = converter(t.of, csv)
        return lambda v: None if v is None or (csv and v == "") else inner(v)
    if isinstance(t, Enum):
        index = {s: i for i, s in enumerate(t.symbols)}
        n = len(t.symbols)

        def enum(v: Any) -> int:
            if isinstance(v, str) and v in index:
                return index[v]
            if csv and isinstance(v, str) and _CSV_INT.match(v):
                v = int(v)
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n:
                return v
            raise ValueProblem(f"{_kind(v)} {v!r} is not a symbol of enum {t.name}")

        return enum
    if isinstance(t, ListOf):
        item = converter(t.of, csv)

        def lst(v: Any) -> list[Any]:
            if not isinstance(v, list):
                raise _bad(v, f"a list ({t})")
            out = []
            for i, x in enumerate(v):
                try:
                    out.append(item(x))
                except ValueProblem as exc:
                    raise exc.at(i) from None
            return out

        return lst
    if isinstance(t, MapOf):
        value = converter(t.of, csv)

        def mapping(v: Any) -> dict[str, Any]:
            if not isinstance(v, dict):
                raise _bad(v, f"an object ({t})")
            out = {}
            for k, x in v.items():
                try:
                    out[k] = value(x)
                except ValueProblem as exc:
                    raise exc.at(k) from None
            return out

        return mapping
    assert isinstance(t, Record)
    fields: list[tuple[str, Converter, bool, type | None]] = []
    names = set()

    def bind() -> None:  # late: records may be referenced before their fields are known
        for k, ft in t.fields:
            nullable = isinstance(ft, Optional) or ft in (Prim("null"), Prim("any"))
            # strings and bools need no conversion: checked inline, the common case
            fast = {"string": str, "bool": bool}.get(str(ft)) if not csv else None
            fields.append((k, converter(ft, csv), nullable, fast))
            names.add(k)

    def record(v: Any) -> dict[str, Any]:
        if not fields and t.fields:
            bind()
        if not isinstance(v, dict):
            raise _bad(v, f"an object (record {t.name})")
        out = {}
        for k, conv, nullable, fast in fields:
            if k in v:
                x = v[k]
                if type(x) is fast:
                    out[k] = x
                    continue
                try:
                    out[k] = conv(x)
                except ValueProblem as exc:
                    raise exc.at(k) from None
            elif nullable:
                out[k] = None
            else:
                raise ValueProblem(f"field {k!r} of record {t.name} is missing")
        if not names.issuperset(v):
            extra = next(k for k in v if k not in names)
            raise ValueProblem(f"key {extra!r} is not a field of record {t.name}").at(extra)
        return out

    return record
