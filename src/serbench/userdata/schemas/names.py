"""Identifiers the schema languages accept, made from a dataset's field and type names."""

from __future__ import annotations

import re


def identifier(key: str) -> str:
    """A field name as an identifier: other characters `_`, a leading digit prefixed `_`."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", key)
    if not name or name[0].isdigit():
        name = "_" + name
    return name


def words(key: str) -> list[str]:
    return [w for w in re.split(r"[^A-Za-z0-9]+", key) if w]


def upper_camel(name: str) -> str:
    """A type name with an upper-case first letter and no underscores."""
    out = "".join(w[0].upper() + w[1:] for w in words(name)) or "T"
    return out if out[0].isalpha() else "T" + out


def lower_camel(key: str, used: set[str]) -> str:
    """A field or enumerant name, unique in ``used``: lowerCamel, no underscores."""
    ws = words(key) or ["field"]
    name = ws[0][0].lower() + ws[0][1:] + "".join(w[0].upper() + w[1:] for w in ws[1:])
    if not name[0].isalpha():
        name = "f" + name
    base, n = name, 1
    while name in used:
        n += 1
        name = f"{base}{n}"
    used.add(name)
    return name


def capnp_names(keys: list[str]) -> list[str]:
    """The Cap'n Proto names of a record's fields or an enum's symbols, in order."""
    used: set[str] = set()
    return [lower_camel(k, used) for k in keys]
