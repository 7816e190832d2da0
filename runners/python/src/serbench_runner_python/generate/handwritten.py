"""The `handwritten` row's codec: the struct-based code a careful person writes by hand,
generated from the types (the Node runner's handwritten layout, byte for byte).

Little-endian fixed-width numbers; bool one byte; an enum its ordinal in one byte (two past
256 symbols); string, bigint (its decimal text) and bytes a uint32 length and the content
(the S1 seed: a uint16 string length); list and map a uint32 count; optional a presence
byte and the value; null nothing; timestamp_ms int64 milliseconds.

Records are inlined into their parent (one that contains itself, or nested deep, becomes a
function), so a run of consecutive fixed-width fields, with the length, count or presence
byte that ends it, is one precompiled Struct: one pack on encode, one unpack_from on decode.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from serbench_runner_python.typelang import Enum, ListOf, MapOf, Optional, Prim, Record, Type

# What types.json cannot say: the S1 seed's hand-written layout writes a string's length
# in two bytes (the Parcelable stand-in); everything else uses four.
SEED_STRING_WIDTH = {"android-users": "H"}

_FIXED = {
    "int32": "i",
    "uint32": "I",
    "int64": "q",
    "uint64": "Q",
    "float32": "f",
    "float64": "d",
    "bool": "?",
    "timestamp_ms": "q",
}
_SIZE = {"B": 1, "?": 1, "H": 2, "i": 4, "I": 4, "f": 4, "q": 8, "Q": 8, "d": 8}
_HEADER = """import struct as _struct
from datetime import timedelta as _td

from serbench_runner_python.model import MS as _MS, hw_rest as _hw_rest
from serbench_runner_python.tree import EPOCH as _EPOCH

_hw_pack = _struct.pack
_hw_unpack_from = _struct.unpack_from
HW_WHY = None
"""


class AnyField(Exception):
    """A field of type ``any``: a field-by-field layout needs its type."""


@dataclass
class Op:
    """One step of a layout. ``code`` is a fixed-width format character, or "" for a step
    that only runs ``lines`` (a call); ``expr`` the value packed (encode) or the local it
    unpacks into (decode); ``setup`` lines run before the run's pack; ``lines`` after it
    (a run ends at a step with lines: the content after a length, count or presence)."""

    code: str
    expr: str = ""
    setup: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _scalar(t: Type) -> str | None:
    """The format character of a fixed-width scalar, None for anything else."""
    if isinstance(t, Prim):
        return _FIXED.get(t.name)
    if isinstance(t, Enum):
        return "H" if len(t.symbols) > 256 else "B"
    return None


# Inlining stops at this depth of records and blocks (loops, ifs): Python limits a
# function's nesting of blocks.
_INLINE_DEPTH = 8
_BLOCK = 0  # a block on the stack of what encloses a value (records are their id)


def _called(rec: Record, stack: tuple[int, ...]) -> bool:
    """Whether a record is written by its function rather than inlined."""
    return id(rec) in stack or len(stack) >= _INLINE_DEPTH


def _ms(t: Type, e: str) -> str:
    return f"({e} - _EPOCH) // _MS" if t == Prim("timestamp_ms") else e


def _at(t: Type, e: str) -> str:
    return f"_EPOCH + _td(milliseconds={e})" if t == Prim("timestamp_ms") else e


class HandwrittenEmitter:
    """Python source of ``hw_encode`` and ``hw_decode`` for one dataset's message type."""

    def __init__(self, string_code: str = "I") -> None:
        self.string_code = string_code
        self.n = 0
        self.structs: dict[str, str] = {}  # format -> name
        self.functions: dict[int, str] = {}  # id(record) -> its functions' suffix
        self.blocks: list[str] = []

    def fresh(self) -> str:
        self.n += 1
        return f"x{self.n}"

    def struct(self, fmt: str) -> str:
        """The name of the precompiled Struct of a format ("<iiq" is "<2iq", _hw_2iq)."""
        fmt = re.sub(r"([^<])\1+", lambda m: f"{len(m[0])}{m[1]}", fmt)
        if fmt not in self.structs:
            self.structs[fmt] = f"_hw_{fmt[1:].replace('?', 'o')}"
        return self.structs[fmt]

    # ---- encode ------------------------------------------------------------------------

    def bind(self, e: str) -> tuple[str, list[str]]:
        """A local holding the value of ``e``, and the line that binds it (if any)."""
        if e.isidentifier():
            return e, []
        v = self.fresh()
        return v, [f"{v} = {e}"]

    def enc(self, t: Type, e: str, path: str, stack: tuple[int, ...]) -> list[Op]:
        code = _scalar(t)
        if code is not None:
            return [Op(code, _ms(t, e))]
        if isinstance(t, Prim):
            return self._enc_prim(t.name, e, path)
        if isinstance(t, Optional):
            o, setup = self.bind(e)
            inner = self.render_enc(self.enc(t.of, o, path, (*stack, _BLOCK)))
            body = [f"if {o} is not None:", *_indent(inner)] if inner else []
            return [Op("?", f"{o} is not None", setup, body)]
        if isinstance(t, ListOf):
            return [self._enc_list(t.of, e, path, stack)]
        if isinstance(t, MapOf):
            (m, setup), k, x = self.bind(e), self.fresh(), self.fresh()
            each = self._enc_text(k, "I") + self.enc(t.of, x, f"{path}.*", (*stack, _BLOCK))
            loop = [f"for {k}, {x} in {m}.items():", *_indent(self.render_enc(each))]
            return [Op("I", f"len({m})", setup, loop)]
        assert isinstance(t, Record)
        if _called(t, stack):
            return [Op("", lines=[f"_hw_w_{self._function(t, path)}(w, {e})"])]
        ops: list[Op] = []
        if len(t.fields) > 1:  # one lookup of the record for all its fields
            e, setup = self.bind(e)
            ops += [Op("", setup=setup)] if setup else []
        for k, ft in t.fields:
            ops += self.enc(ft, f"{e}[{k!r}]", f"{path}.{k}", (*stack, id(t)))
        return ops

    def _enc_prim(self, name: str, e: str, path: str) -> list[Op]:
        if name == "null":
            return []
        if name == "string":
            return self._enc_text(e, self.string_code)
        if name == "bigint":
            return self._enc_text(f"str({e})", "I")
        if name == "bytes":
            b, setup = self.bind(e)
            return [Op("I", f"len({b})", setup, [f"w({b})"])]
        raise AnyField(f"handwritten: {path} is any: a field-by-field layout needs its type")

    def _enc_text(self, e: str, code: str) -> list[Op]:
        s = self.fresh()
        return [Op(code, f"len({s})", [f"{s} = {e}.encode()"], [f"w({s})"])]

    def _enc_list(self, of: Type, e: str, path: str, stack: tuple[int, ...]) -> Op:
        (a, setup), x = self.bind(e), self.fresh()
        head = Op("I", f"len({a})", setup)
        code = _scalar(of)
        if code is not None:  # one pack for the whole list
            items = f"*{a}" if _ms(of, x) == x else f"*[{_ms(of, x)} for {x} in {a}]"
            head.lines = [f'w(_hw_pack("<%d{code}" % len({a}), {items}))']
        else:
            each = self.render_enc(self.enc(of, x, f"{path}[*]", (*stack, _BLOCK)))
            head.lines = [f"for {x} in {a}:", *_indent(each)] if each else []
        return head

    def render_enc(self, ops: list[Op]) -> list[str]:
        out: list[str] = []
        fmt, args, setup = "", [], []
        for op in ops:
            setup += op.setup
            if op.code:
                fmt += op.code
                args.append(op.expr)
            if op.lines:
                out += setup
                if fmt:
                    out.append(f"w({self.struct('<' + fmt)}.pack({', '.join(args)}))")
                out += op.lines
                fmt, args, setup = "", [], []
        out += setup
        if fmt:
            out.append(f"w({self.struct('<' + fmt)}.pack({', '.join(args)}))")
        return out

    # ---- decode ------------------------------------------------------------------------

    def dec(self, t: Type, stack: tuple[int, ...]) -> tuple[list[Op], str]:
        """The steps reading a value, and the expression of the value read."""
        code = _scalar(t)
        if code is not None:
            v = self.fresh()
            return [Op(code, v)], _at(t, v)
        if isinstance(t, Prim):
            if t.name == "null":
                return [], "None"
            if t.name == "bytes":
                return self._dec_slice("bytes({})", "I")
            ops, s = self._dec_slice('str({}, "utf-8")', "I" if t.name == "bigint" else None)
            return ops, f"int({s})" if t.name == "bigint" else s
        if isinstance(t, Optional):
            p, o = self.fresh(), self.fresh()
            ops, value = self.dec(t.of, (*stack, _BLOCK))
            if not ops:  # optional<null>: the presence byte says it all
                return [Op("?", p)], value
            body = [*self.render_dec(ops), f"{o} = {value}"]
            lines = [f"if {p}:", *_indent(body), "else:", f"    {o} = None"]
            return [Op("?", p, lines=lines)], o
        if isinstance(t, ListOf):
            return self._dec_list(t.of, stack)
        if isinstance(t, MapOf):
            n, d = self.fresh(), self.fresh()
            key, k = self._dec_slice('str({}, "utf-8")', "I")
            ops, value = self.dec(t.of, (*stack, _BLOCK))
            body = [*self.render_dec(key + ops), f"{d}[{k}] = {value}"]
            lines = [f"{d} = {{}}", f"for _ in range({n}):", *_indent(body)]
            return [Op("I", n, lines=lines)], d
        assert isinstance(t, Record)
        if _called(t, stack):
            v = self.fresh()
            return [Op("", lines=[f"{v}, pos = _hw_r_{self._function(t, '$')}(data, pos)"])], v
        ops, pairs = [], []
        for k, ft in t.fields:
            more, value = self.dec(ft, (*stack, id(t)))
            ops += more
            pairs.append(f"{k!r}: {value}")
        return ops, "{" + ", ".join(pairs) + "}"

    def _dec_slice(self, make: str, code: str | None) -> tuple[list[Op], str]:
        """A length and that many bytes, made into a value by ``make``."""
        n, v = self.fresh(), self.fresh()
        lines = [f"{v} = {make.format(f'data[pos : pos + {n}]')}", f"pos += {n}"]
        return [Op(code or self.string_code, n, lines=lines)], v

    def _dec_list(self, of: Type, stack: tuple[int, ...]) -> tuple[list[Op], str]:
        n, a, x = self.fresh(), self.fresh(), self.fresh()
        code = _scalar(of)
        if code is not None:  # one unpack for the whole list
            items = f'_hw_unpack_from("<%d{code}" % {n}, data, pos)'
            made = f"list({items})" if _at(of, x) == x else f"[{_at(of, x)} for {x} in {items}]"
            lines = [f"{a} = {made}", f"pos += {_SIZE[code]} * {n}"]
        elif of == Prim("null"):
            lines = [f"{a} = [None] * {n}"]
        else:
            ops, value = self.dec(of, (*stack, _BLOCK))
            body = [*self.render_dec(ops), f"{a}.append({value})"]
            lines = [f"{a} = []", f"for _ in range({n}):", *_indent(body)]
        return [Op("I", n, lines=lines)], a

    def render_dec(self, ops: list[Op]) -> list[str]:
        out: list[str] = []
        fmt, names = "", []

        def flush() -> None:
            if fmt:
                targets = f"({names[0]},)" if len(names) == 1 else ", ".join(names)
                out.append(f"{targets} = {self.struct('<' + fmt)}.unpack_from(data, pos)")
                out.append(f"pos += {sum(_SIZE[c] for c in fmt)}")

        for op in ops:
            if op.code:
                fmt += op.code
                names.append(op.expr)
            if op.lines:
                flush()
                out += op.lines
                fmt, names = "", []
        flush()
        return out

    # ---- functions ---------------------------------------------------------------------

    def _function(self, rec: Record, path: str) -> str:
        """The writer and reader functions of a record that contains itself, or that is
        nested too deep to inline."""
        if id(rec) in self.functions:
            return self.functions[id(rec)]
        suffix = str(len(self.functions))
        self.functions[id(rec)] = suffix
        stack = (id(rec),)
        ops: list[Op] = []
        for k, ft in rec.fields:
            ops += self.enc(ft, f"v[{k!r}]", f"{path}.{k}", stack)
        writer = self.render_enc(ops) or ["pass"]
        self.blocks.append(f"def _hw_w_{suffix}(w, v):\n" + "\n".join(_indent(writer)))
        ops, value = self.dec(rec, ())
        reader = [*self.render_dec(ops), f"return {value}, pos"]
        self.blocks.append(f"def _hw_r_{suffix}(data, pos):\n" + "\n".join(_indent(reader)))
        return suffix

    def root(self, message: Type) -> str:
        """Module source: ``hw_encode``/``hw_decode``, or ``HW_WHY`` (an ``any`` field)."""
        try:
            enc_ops = self.enc(message, "m", "$", ())
        except AnyField as exc:
            return f"HW_WHY = {str(exc)!r}\n"
        encode = self._encode_body(self.render_enc(enc_ops))
        dec_ops, value = self.dec(message, ())
        decode = self._decode_body(dec_ops, value)
        structs = [f'{name} = _struct.Struct("{fmt}")' for fmt, name in self.structs.items()]
        parts = [_HEADER + "\n".join(structs), *self.blocks]
        parts.append("def hw_encode(m):\n" + "\n".join(_indent(encode)))
        parts.append("def hw_decode(data):\n" + "\n".join(_indent(decode)))
        return "\n\n\n".join(parts) + "\n"

    @staticmethod
    def _encode_body(lines: list[str]) -> list[str]:
        """Straight-line code returns its pieces joined; loops append to a list. A value
        out of its type's range is a ValueError, as the other libraries raise."""
        pieces = [line[2:-1] for line in lines if line.startswith("w(")]
        setup = [line for line in lines if not line.startswith("w(")]
        straight = all(" = " in line and line[0] == "x" for line in setup)
        if straight and len(pieces) <= 2:
            body = [*setup, f"return {' + '.join(pieces) or repr(b'')}"]
        elif straight:
            body = [*setup, f"return b''.join(({', '.join(pieces)},))"]
        else:
            body = ["out = []", "w = out.append", *lines, "return b''.join(out)"]
        handler = ["except _struct.error as exc:", "    raise ValueError(exc) from None"]
        return ["try:", *_indent(body), *handler]

    def _decode_body(self, ops: list[Op], value: str) -> list[str]:
        """One Struct whose size is the message's: ``unpack`` checks the length itself."""
        if ops and all(op.code and not op.lines for op in ops):
            fmt = "<" + "".join(op.code for op in ops)
            names = [op.expr for op in ops]
            targets = f"({names[0]},)" if len(names) == 1 else ", ".join(names)
            return [f"{targets} = {self.struct(fmt)}.unpack(data)", f"return {value}"]
        lines = self.render_dec(ops)
        return ["pos = 0", *lines, "_hw_rest(data, pos)", f"return {value}"]
