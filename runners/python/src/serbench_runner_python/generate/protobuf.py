"""Conversions between the tree and protoc's generated classes, walking the types and the
compiled descriptors side by side: a record's k-th field is its message's k-th field
(declaration order), whatever the field numbers and names (protocol section 7)."""

from __future__ import annotations

import keyword
from typing import Any

from serbench_runner_python.generate.code import Conv, Names, apply, over_list, over_map
from serbench_runner_python.tree import PathPart, format_path
from serbench_runner_python.typelang import NULL, ListOf, MapOf, Optional, Prim, Record, Type


def _is_null(t: Type) -> bool:
    return t == NULL or (isinstance(t, Optional) and t.of == NULL)


def _value_field(field: Any) -> Any:
    """A map field's value field (the entry message's second field)."""
    return field.message_type.fields[1]


def _call(cls: str, args: dict[str, str]) -> str:
    """A constructor call; fields named like Python keywords go through a dict."""
    plain = all(not keyword.iskeyword(k) for k in args)
    if plain:
        return f"{cls}({', '.join(f'{k}={v}' for k, v in args.items())})"
    return f"{cls}(**{{{', '.join(f'{k!r}: {v}' for k, v in args.items())}}})"


class ProtobufEmitter:
    def __init__(self) -> None:
        self.names = Names()
        self.classes: dict[str, str] = {}  # message full name -> module-level class name
        self.helpers: dict[tuple[int, str, bool], str] = {}
        self.blocks: list[str] = []

    def _class(self, desc: Any) -> str:
        if desc.full_name not in self.classes:
            name = f"_C{len(self.classes)}"
            self.classes[desc.full_name] = name
            self.blocks.append(f"{name} = _pb_class({desc.full_name!r})\n")
        return self.classes[desc.full_name]

    def _scalar(self, t: Type, field: Any, to: bool) -> Conv:
        if isinstance(t, Prim) and t.name == "timestamp_ms":
            fn = "_ms" if to else "_at"
            return lambda e: f"{fn}({e})"
        if isinstance(t, Prim) and t.name == "bool" and field.type != field.TYPE_BOOL:
            fn = "int" if to else "bool"  # a bool stored as an integer (S1's isMegane)
            return lambda e: f"{fn}({e})"
        return None

    def _value(self, t: Type, field: Any, parts: list[PathPart], to: bool) -> Conv:
        """One element (no list, map or presence): a record's message or a scalar."""
        if isinstance(t, Record):
            helper = self._helper(t, field.message_type, parts, to)
            return lambda e: f"{helper}({e})"
        return self._scalar(t, field, to)

    def _field_to(self, t: Type, field: Any, parts: list[PathPart], src: str) -> str | None:
        """The constructor argument for one field from the value ``src``; None: never set."""
        if _is_null(t):
            return None
        if isinstance(t, Optional):
            inner = self._value(t.of, field, parts, True)
            return src if inner is None else f"(None if {src} is None else {inner(src)})"
        if isinstance(t, ListOf):
            if t.of == NULL:
                return f"_no_nulls({src}, {format_path(parts)!r})"
            item = self._value(t.of, field, [*parts, "[*]"], True)
            return apply(over_list(item, self.names), src)
        if isinstance(t, MapOf):
            inner = self._value(t.of, _value_field(field), [*parts, "*"], True)
            return apply(over_map(inner, self.names), src)
        return apply(self._value(t, field, parts, True), src)

    def _field_from(self, t: Type, field: Any, parts: list[PathPart], m: str) -> str:
        """The tree value of one field of the message ``m``."""
        name = field.name
        src = f"getattr({m}, {name!r})" if keyword.iskeyword(name) else f"{m}.{name}"
        if _is_null(t):
            return "None"
        if isinstance(t, Optional):
            inner = apply(self._value(t.of, field, parts, False), src)
            return f"({inner} if {m}.HasField({field.name!r}) else None)"
        if isinstance(t, ListOf):
            if t.of == NULL:
                return f"[None for _ in {src}]"
            item = self._value(t.of, field, [*parts, "[*]"], False)
            return f"list({src})" if item is None else apply(over_list(item, self.names), src)
        if isinstance(t, MapOf):
            value = self._value(t.of, _value_field(field), [*parts, "*"], False)
            return f"dict({src})" if value is None else apply(over_map(value, self.names), src)
        return apply(self._value(t, field, parts, False), src)

    def _helper(self, rec: Record, desc: Any, parts: list[PathPart], to: bool) -> str:
        key = (id(rec), desc.full_name, to)
        if key in self.helpers:
            return self.helpers[key]
        name = f"_{'to' if to else 'from'}_pb_{len(self.helpers)}"
        self.helpers[key] = name
        if len(desc.fields) != len(rec.fields):
            raise ValueError(
                f"{desc.full_name} has {len(desc.fields)} fields, {rec.name} {len(rec.fields)}"
            )
        pairs = list(zip(rec.fields, desc.fields, strict=True))
        if to:
            args = {}
            for (key_, t), field in pairs:
                value = self._field_to(t, field, [*parts, key_], f"v[{key_!r}]")
                if value is not None:
                    args[field.name] = value
            body = _call(self._class(desc), args)
        else:
            items = [f"{k!r}: {self._field_from(t, f, [*parts, k], 'm')}" for (k, t), f in pairs]
            body = "{" + ", ".join(items) + "}"
        arg = "v" if to else "m"
        self.blocks.append(f"def {name}({arg}: _Any) -> _Any:\n    return {body}\n")
        return name

    def root(self, message: Type, desc: Any) -> str:
        """``PB_ROOT``, ``to_pb`` and ``from_pb``; a message that is not a record is the
        root message's only field."""
        if isinstance(message, Record):
            to = self._helper(message, desc, [], True)
            back = self._helper(message, desc, [], False)
            to_body, from_body = f"{to}(v)", f"{back}(m)"
        else:
            (field,) = desc.fields
            arg = self._field_to(message, field, [], "v")
            to_body = _call(self._class(desc), {field.name: arg} if arg else {})
            from_body = self._field_from(message, field, [], "m")
        root_class = self._class(desc)
        out = [
            f"PB_ROOT = {root_class}\n",
            f"def to_pb(v: _Any) -> _Any:\n    return {to_body}\n",
            f"def from_pb(m: _Any) -> _Any:\n    return {from_body}\n",
        ]
        return "\n\n".join([*self.blocks, *out])


def find_root(file_desc: Any, message: Type, named: str | None) -> Any:
    """The message one dataset message is: ``named`` (user schemas), the record's own
    message, or the file's only single-field message no other message refers to."""
    messages = list(file_desc.message_types_by_name.values())
    if named is not None:
        return file_desc.message_types_by_name[named]
    if isinstance(message, Record):
        return file_desc.message_types_by_name[message.name]
    used = {f.message_type.full_name for m in messages for f in m.fields if f.message_type}
    (root,) = [m for m in messages if len(m.fields) == 1 and m.full_name not in used]
    return root
