"""Helpers shared by the emitters: unique Python names and conversion expressions."""

from __future__ import annotations

import keyword
from collections.abc import Callable

from serbench_runner_python.typelang import identifier

# An expression converting the value in the given expression (None: no conversion).
Conv = Callable[[str], str] | None


def python_name(key: str, used: set[str], prefix: str = "") -> str:
    """A unique attribute or class name (no keywords, no leading underscore)."""
    name = prefix + identifier(key)
    if keyword.iskeyword(name) or name.startswith("_"):
        name = "f" + name
    base, n = name, 1
    while name in used:
        n += 1
        name = f"{base}{n}"
    used.add(name)
    return name


class Names:
    """Fresh comprehension variables, so nested conversions do not shadow each other."""

    def __init__(self) -> None:
        self.n = 0

    def var(self) -> str:
        self.n += 1
        return f"x{self.n}"


def over_list(item: Conv, names: Names) -> Conv:
    if item is None:
        return None
    x = names.var()
    return lambda e: f"[{item(x)} for {x} in {e}]"


def over_map(value: Conv, names: Names) -> Conv:
    if value is None:
        return None
    x = names.var()
    return lambda e: f"{{k: {value(x)} for k, {x} in {e}.items()}}"


def or_none(inner: Conv) -> Conv:
    if inner is None:
        return None
    return lambda e: f"(None if {e} is None else {inner(e)})"


def apply(conv: Conv, expr: str) -> str:
    return expr if conv is None else conv(expr)
