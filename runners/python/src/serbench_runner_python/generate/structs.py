"""msgspec Structs (keyed: JSON objects; array-like: the seed's positional layout) and
plain positional lists, with their conversions from and to the tree.

The positional layout writes a record as an array of its fields in order and an enum as
its ordinal; a record of one field is its bare value (S2's Test3 is a bare string).
"""

from __future__ import annotations

from serbench_runner_python.generate.code import (
    Conv,
    Names,
    apply,
    or_none,
    over_list,
    over_map,
    python_name,
)
from serbench_runner_python.typelang import Enum, ListOf, MapOf, Optional, Prim, Record, Type

_ANNOTATION = {
    "null": "None",
    "bool": "bool",
    "string": "str",
    "bytes": "bytes",
    "float32": "float",
    "float64": "float",
    "timestamp_ms": "_dt.datetime",
    "any": "_Any",
}
VIEWS = ("keyed", "array", "list")


class StructEmitter:
    """Python source for one dataset's Structs and converters (views: keyed, array, list)."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.names = Names()
        self.classes: dict[tuple[int, str], str] = {}  # (id(type), view) -> class name
        self.attrs: dict[int, list[str]] = {}  # id(record) -> its attribute names
        self.blocks: list[str] = []
        self.helpers: dict[tuple[int, str, str], str] = {}  # (id, view, direction) -> def

    def _attrs(self, rec: Record) -> list[str]:
        if id(rec) not in self.attrs:
            used: set[str] = set()
            self.attrs[id(rec)] = [python_name(k, used) for k, _ in rec.fields]
        return self.attrs[id(rec)]

    @staticmethod
    def bare(rec: Record, view: str) -> bool:
        return view != "keyed" and len(rec.fields) == 1

    def annotation(self, t: Type, view: str) -> str:
        if isinstance(t, Prim):
            return _ANNOTATION.get(t.name, "int")
        if isinstance(t, Optional):
            inner = self.annotation(t.of, view)
            return inner if inner == "None" else f"{inner} | None"
        if isinstance(t, ListOf):
            return f"list[{self.annotation(t.of, view)}]"
        if isinstance(t, MapOf):
            return f"dict[str, {self.annotation(t.of, view)}]"
        if isinstance(t, Enum):
            return self._enum(t)
        if self.bare(t, view):
            return self.annotation(t.fields[0][1], view)
        return self._struct(t, view)

    def _enum(self, t: Enum) -> str:
        key = (id(t), "enum")
        if key not in self.classes:
            name = python_name(t.name, self.used, "E_")
            self.classes[key] = name
            used: set[str] = set()
            members = "".join(
                f"    {python_name(s, used)} = {i}\n" for i, s in enumerate(t.symbols)
            )
            self.blocks.append(f"class {name}(_enum.IntEnum):\n{members}")
        return self.classes[key]

    def _struct(self, rec: Record, view: str) -> str:
        key = (id(rec), view)
        if key not in self.classes:
            prefix = "K_" if view == "keyed" else "A_"
            name = python_name(rec.name, self.used, prefix)
            self.classes[key] = name
            option = "" if view == "keyed" else ", array_like=True"
            lines = [f"class {name}(_msgspec.Struct{option}):"]
            for (k, t), attr in zip(rec.fields, self._attrs(rec), strict=True):
                renamed = f" = _msgspec.field(name={k!r})" if attr != k and view == "keyed" else ""
                lines.append(f"    {attr}: {self.annotation(t, view)}{renamed}")
            if not rec.fields:
                lines.append("    pass")
            self.blocks.append("\n".join(lines) + "\n")
        return self.classes[key]

    def conv(self, t: Type, view: str, to: bool) -> Conv:
        """Tree -> view (to) or view -> tree; None: the value passes as it is."""
        if isinstance(t, Optional):
            return or_none(self.conv(t.of, view, to))
        if isinstance(t, ListOf):
            return over_list(self.conv(t.of, view, to), self.names)
        if isinstance(t, MapOf):
            return over_map(self.conv(t.of, view, to), self.names)
        if isinstance(t, Record):
            helper = self._helper(t, view, to)
            return lambda e: f"{helper}({e})"
        return None  # scalars, timestamps (datetimes in both) and enum ordinals

    def _helper(self, rec: Record, view: str, to: bool) -> str:
        key = (id(rec), view, "to" if to else "from")
        if key in self.helpers:
            return self.helpers[key]
        name = f"_{key[2]}_{view}_{len(self.helpers)}"
        self.helpers[key] = name
        fields = [(k, self.conv(t, view, to)) for k, t in rec.fields]
        attrs = self._attrs(rec)
        if to:
            args = [apply(c, f"v[{k!r}]") for k, c in fields]
            if self.bare(rec, view):
                body = args[0]
            elif view == "list":
                body = f"[{', '.join(args)}]"
            else:
                body = f"{self._struct(rec, view)}({', '.join(args)})"
        else:
            if self.bare(rec, view):
                sources = ["v"]
            elif view == "list":
                sources = [f"v[{i}]" for i in range(len(fields))]
            else:
                sources = [f"v.{a}" for a in attrs]
            pairs = [f"{k!r}: {apply(c, s)}" for (k, c), s in zip(fields, sources, strict=True)]
            body = "{" + ", ".join(pairs) + "}"
        self.blocks.append(f"def {name}(v: _Any) -> _Any:\n    return {body}\n")
        return name

    def root(self, message: Type) -> str:
        """Module-level names: the root annotations and the converters of every view."""
        out = []
        for view in VIEWS:
            if view != "list":
                out.append(f"{view.upper()} = {self.annotation(message, view)}\n")
            for to in (True, False):
                fn = f"{'to' if to else 'from'}_{view}"
                body = apply(self.conv(message, view, to), "v")
                out.append(f"def {fn}(v: _Any) -> _Any:\n    return {body}\n")
        return "\n\n".join([*self.blocks, *out])
