"""Type inference: a summary of every value seen at each position, then a type per position.

Rules (each deliberate, all overridable with --types):
- integers: int32 if every value fits, else int64, else uint64, else bigint;
  integers mixed with floats are float64 while every integer is exact as a double
  (|n| <= 2^53), else any; floats are float64 (float32 only when declared);
- a position that is only ever null is ``null``; null beside T makes ``optional<T>``;
  a list that is always empty is ``list<null>``;
- an object is a record when all its keys are identifiers ([A-Za-z_][A-Za-z0-9_]*) and
  there are at most MAX_FIELDS distinct keys; otherwise a map<string,T> with T the join
  of its values. A record field missing from some objects is ``optional`` (written as
  null in the canonical file);
- anything else that mixes kinds (string and number, object and list, ...) is ``any``;
- CSV cells are text: a column is bool, int or float when every non-empty cell reads
  as one (true/false, JSON number syntax), with empty cells null; else string.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from serbench.userdata.errors import MAX_DEPTH, ValueProblem
from serbench.userdata.types import (
    IDENTIFIER,
    INT_RANGES,
    Enum,
    ListOf,
    MapOf,
    Optional,
    Prim,
    Record,
    Type,
    Types,
)

MAX_FIELDS = 64
_INFINITIES = (float("inf"), float("-inf"))  # a plain float infinity: an overflowed literal
_CSV_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_CSV_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")


class Summary:
    """What was seen at one position."""

    __slots__ = (
        "nulls",
        "bools",
        "ints",
        "lo",
        "hi",
        "floats",
        "strings",
        "lists",
        "items",
        "objects",
        "fields",
        "absent",
        "values",
        "filled",
    )
    # Counters over all summaries: fields that appeared after objects without them
    # (``late``: objects written earlier lack their null), and summaries that became maps
    # after nulls were filled into their objects (``unsafe``: those nulls are wrong).
    late: ClassVar[int] = 0
    unsafe: ClassVar[int] = 0

    def __init__(self) -> None:
        self.nulls = self.bools = self.ints = self.floats = self.strings = 0
        self.lo: int | None = None
        self.hi: int | None = None
        self.lists = self.objects = 0
        self.items: Summary | None = None
        self.fields: dict[str, Summary] | None = {}  # None: the objects are a map
        self.absent: dict[str, int] = {}  # per field: the objects without it
        self.values: Summary | None = None  # the map's values
        self.filled = False  # missing fields were filled into objects as null

    def add(self, v: Any, depth: int = 0) -> None:
        t = type(v)
        if t is str:
            self.strings += 1
        elif t is int:
            self.ints += 1
            if self.lo is None or v < self.lo:
                self.lo = v
            if self.hi is None or v > self.hi:
                self.hi = v
        elif t is dict:
            if depth >= MAX_DEPTH:
                raise ValueProblem(f"nesting deeper than {MAX_DEPTH} levels")
            self.objects += 1
            self._add_object(v, depth)
        elif t is float:
            if v in _INFINITIES:
                raise ValueProblem("number overflows a double")
            self.floats += 1
        elif t is bool:
            self.bools += 1
        elif v is None:
            self.nulls += 1
        elif t is list:
            if depth >= MAX_DEPTH:
                raise ValueProblem(f"nesting deeper than {MAX_DEPTH} levels")
            self.lists += 1
            if v and self.items is None:
                self.items = Summary()
            items = self.items
            for i, x in enumerate(v):
                try:
                    items.add(x, depth + 1)  # type: ignore[union-attr]
                except ValueProblem as exc:
                    raise exc.at(i) from None
        else:  # reader.Literal: NaN, Infinity, -Infinity as written
            self.floats += 1

    def _add_object(self, v: dict[str, Any], depth: int) -> None:
        fields = self.fields
        missing: list[str] = []
        if fields is not None:
            if not v.keys() <= fields.keys():
                for k in v:
                    if k not in fields:
                        if len(fields) >= MAX_FIELDS or not IDENTIFIER.match(k):
                            self._become_map()
                            break
                        fields[k] = Summary()
                        self.absent[k] = self.objects - 1  # the objects before this one
                        if self.objects > 1:
                            Summary.late += 1
            if self.fields is not None and len(v) < len(fields):
                absent = self.absent
                for k in fields:
                    if k not in v:
                        absent[k] += 1
                        missing.append(k)
        if self.fields is None:
            if self.values is None:
                self.values = Summary()
            values = self.values
            for k, x in v.items():
                try:
                    values.add(x, depth + 1)
                except ValueProblem as exc:
                    raise exc.at(k) from None
            return
        for k, x in v.items():
            f = fields[k]  # type: ignore[index]
            t = type(x)
            if t is str:  # the common scalars inline: this loop is most of the inference
                f.strings += 1
            elif t is bool:
                f.bools += 1
            elif x is None:
                f.nulls += 1
            elif t is int:
                f.ints += 1
                if f.lo is None or x < f.lo:
                    f.lo = x
                if f.hi is None or x > f.hi:
                    f.hi = x
            else:
                try:
                    f.add(x, depth + 1)
                except ValueProblem as exc:
                    raise exc.at(k) from None
        if missing:  # a missing field is written as null: filled in as the record is read
            for k in missing:
                v[k] = None
            self.filled = True

    def _become_map(self) -> None:
        if self.filled:
            Summary.unsafe += 1
        merged = self.values or Summary()
        for s in (self.fields or {}).values():
            merged.merge(s)
        self.values, self.fields, self.absent = merged, None, {}

    def merge(self, o: Summary) -> None:
        self.nulls += o.nulls
        self.bools += o.bools
        self.ints += o.ints
        self.floats += o.floats
        self.strings += o.strings
        if o.lo is not None:
            self.lo = o.lo if self.lo is None else min(self.lo, o.lo)
            self.hi = o.hi if self.hi is None else max(self.hi, o.hi)  # type: ignore[type-var]
        self.lists += o.lists
        if o.items is not None:
            if self.items is None:
                self.items = Summary()
            self.items.merge(o.items)
        before, self.objects = self.objects, self.objects + o.objects
        if o.objects:
            if self.fields is not None and o.fields is not None:
                for k, s in o.fields.items():
                    if k not in self.fields:
                        self.fields[k] = Summary()
                        self.absent[k] = before
                    self.fields[k].merge(s)
                    self.absent[k] += o.absent[k]
                for k in self.fields:
                    if k not in o.fields:
                        self.absent[k] += o.objects
                if len(self.fields) > MAX_FIELDS:
                    self._become_map()
            else:
                if self.fields is not None:
                    self._become_map()
                if self.values is None:
                    self.values = Summary()
                for s in (o.fields or {}).values() if o.fields is not None else [o.values]:
                    if s is not None:
                        self.values.merge(s)

    def add_csv(self, raw: str) -> None:
        """A CSV cell: classified by its text."""
        if raw == "":
            self.nulls += 1
        elif raw in ("true", "false"):
            self.bools += 1
        elif _CSV_INT.match(raw):
            self.add(int(raw))
        elif _CSV_FLOAT.match(raw):
            if float(raw) in _INFINITIES:
                raise ValueProblem("number overflows a double")
            self.floats += 1
        elif raw in ("NaN", "Infinity", "-Infinity"):
            self.floats += 1
        else:
            self.strings += 1


def needs_conversion(s: Summary, csv: bool = False) -> bool:
    """Whether the inferred types change any value written as read: integers beside floats
    (float64: written as floats; ``any``: a NaN there is an error the converter locates),
    CSV text beside numbers, bools or empty cells (a string column keeps the text).
    Missing record fields are not among them: Summary fills them in as null."""
    kinds = sum(1 for n in (s.bools, s.ints, s.floats, s.strings, s.lists, s.objects) if n)
    if s.floats and kinds > 1:
        return True
    if csv and s.strings and (s.nulls or kinds > 1):
        return True
    if s.items is not None and needs_conversion(s.items, csv):
        return True
    if s.values is not None and needs_conversion(s.values, csv):
        return True
    if s.fields:
        for f in s.fields.values():
            if needs_conversion(f, csv):
                return True
    return False


class _Namer:
    def __init__(self) -> None:
        self.named: dict[str, Enum | Record] = {}
        self.shapes: dict[tuple[tuple[str, str], ...], Record] = {}

    def record(self, hint: str, fields: list[tuple[str, Type]]) -> Record:
        shape = tuple((k, str(t)) for k, t in fields)
        if shape in self.shapes:  # the same record in two places: one type
            return self.shapes[shape]
        base = "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", hint) if p)
        if not base or not base[0].isalpha():
            base = "R" + base
        name, n = base, 2
        while name in self.named or name == "Root":
            name, n = f"{base}{n}", n + 1
        rec = Record(name, fields)
        self.named[name] = rec
        self.shapes[shape] = rec
        return rec


def _int_type(lo: int, hi: int) -> str:
    for name in ("int32", "int64", "uint64"):
        low, high = INT_RANGES[name]
        if low <= lo and hi <= high:
            return name
    return "bigint"


_KIND_WORDS = {
    "string": "string",
    "int": "number",
    "float": "number",
    "bool": "bool",
    "list": "array",
    "object": "object",
}


def mixed_kinds(kinds: list[str]) -> str:
    """``string and number``, ``bool, array and object``: the JSON kinds that were mixed."""
    words: list[str] = []
    for k in _KIND_WORDS:
        if k in kinds and _KIND_WORDS[k] not in words:
            words.append(_KIND_WORDS[k])
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _type(s: Summary, hint: str, namer: _Namer, csv: bool) -> Type:
    if csv and s.strings:
        return Prim("string")
    kinds = [
        k
        for k, n in (
            ("bool", s.bools),
            ("int", s.ints),
            ("float", s.floats),
            ("string", s.strings),
            ("list", s.lists),
            ("object", s.objects),
        )
        if n
    ]
    t: Type
    if not kinds:
        return Prim("null")
    if kinds == ["int", "float"]:
        exact = -(2**53) <= s.lo <= s.hi <= 2**53  # type: ignore[operator]
        t = Prim("float64") if exact else Prim("any", "integers beyond 2^53 and floats")
    elif len(kinds) > 1:
        t = Prim("any", mixed_kinds(kinds))
    elif kinds == ["int"]:
        t = Prim(_int_type(s.lo, s.hi))  # type: ignore[arg-type]
    elif kinds == ["float"]:
        t = Prim("float64")
    elif kinds == ["bool"]:
        t = Prim("bool")
    elif kinds == ["string"]:
        t = Prim("string")
    elif kinds == ["list"]:
        items = _type(s.items, hint, namer, csv) if s.items is not None else Prim("null")
        t = ListOf(items)
    elif s.fields is None or not s.fields:
        values = s.values
        t = MapOf(_type(values, hint, namer, csv) if values is not None else Prim("null"))
    else:
        fields: list[tuple[str, Type]] = []
        for k, fs in s.fields.items():
            ft = _type(fs, k, namer, csv)
            if s.absent[k] and not isinstance(ft, Optional) and ft != Prim("null"):
                ft = Optional(ft) if ft != Prim("any") else ft
            fields.append((k, ft))
        t = namer.record(hint, fields)
    if s.nulls and t != Prim("any"):
        t = Optional(t)
    return t


def infer(summary: Summary, hint: str = "Root", csv: bool = False) -> Types:
    namer = _Namer()
    message = _type(summary, hint, namer, csv)
    return Types(message, namer.named)
