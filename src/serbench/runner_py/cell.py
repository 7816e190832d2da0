"""One cell: a serializer on a dataset, checked first, then timed operation by operation."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench.operations import CODECS, OPERATIONS  # noqa: F401 - OPERATIONS re-exported
from serbench.runner_py.framing import COMPRESSORS, decode_stream, encode_stream, varint
from serbench.runner_py.model import first_difference, load_messages
from serbench.runner_py.serializers.base import Codec
from serbench.runner_py.timing import Op

assert set(COMPRESSORS) == set(CODECS), "the Python runner has every protocol codec"


@dataclass
class Prepared:
    """A dataset bound to a codec: prepared messages and the full encoded output."""

    codec: Codec
    framing: str
    messages: list[Any]  # what encode takes, one per distinct item
    count: int

    def encode_all(self, compress: Callable[[bytes], bytes] | None = None) -> bytes:
        if self.framing == "single":
            data = self.codec.encode(self.messages[0])
            return compress(data) if compress else data
        return encode_stream(self.codec, self.messages, self.count, compress)

    def decode_all(
        self, buf: bytes, decompress: Callable[[bytes], bytes] | None = None
    ) -> Iterator[Any]:
        if self.framing == "single":
            return iter((self.codec.decode(decompress(buf) if decompress else buf),))
        return decode_stream(self.codec, buf, decompress)

    def compressed_size(self, compress: Callable[[bytes], bytes]) -> int:
        """Size of encode+c output, computed per distinct message (streams repeat items)."""
        if self.framing == "single":
            return len(compress(self.codec.encode(self.messages[0])))
        total, k = 0, len(self.messages)
        for j, message in enumerate(self.messages):
            frame = compress(self.codec.encode(message))
            repeats = self.count // k + (1 if j < self.count % k else 0)
            total += repeats * (len(varint(len(frame))) + len(frame))
        return total


def prepare(codec: Codec, dataset: str, data_path: str) -> Prepared:
    items, count, framing = load_messages(dataset, data_path)
    return Prepared(codec, framing, [codec.prepare(m) for m in items], count)


def check(
    prepared: Prepared, dataset: str, check_path: str, foreign: bytes | None = None
) -> tuple[bool, str, bytes]:
    """Full round trip (or a decode of another runner's bytes) compared with
    check_path's messages; (ok, detail, the bytes decoded)."""
    expected, count, _ = load_messages(dataset, check_path)
    encoded = prepared.encode_all() if foreign is None else foreign
    try:
        ok, detail = compare(prepared, encoded, expected, count)
    except Exception as exc:
        if foreign is None:
            raise
        # bytes from another runner that this library cannot read: incompatible, not a crash
        return False, f"cannot decode: {type(exc).__name__}: {exc}"[:300], encoded
    return ok, detail, encoded


def compare(
    prepared: Prepared,
    encoded: bytes,
    expected: list[Any],
    count: int,
    difference: Callable[[Any, Any], str | None] = first_difference,
) -> tuple[bool, str]:
    """Decode every message of ``encoded`` and compare it with the expected one."""
    to_native = prepared.codec.to_native
    n = 0
    for i, value in enumerate(prepared.decode_all(encoded)):
        if i >= count:
            return False, f"decoded more than the {count} messages encoded"
        diff = difference(expected[i % len(expected)], to_native(value))
        if diff:
            where = f"message {i}: " if count > 1 else ""
            return False, f"{where}{diff}"
        n = i + 1
    if n != count:
        return False, f"decoded {n} messages, expected {count}"
    return True, f"{count} message(s) equal"


def _drain(it: Iterator[Any]) -> Any:
    last = None
    for last in it:  # noqa: B007 - the sink: every message is produced and touched
        pass
    return last


def operation(prepared: Prepared, name: str, encoded: bytes) -> Op:
    """A zero-argument callable doing one iteration of the named operation."""
    if name == "encode":
        return prepared.encode_all
    if name == "decode":
        return lambda: _drain(prepared.decode_all(encoded))
    if "+" not in name:
        raise KeyError(name)
    left, right = name.split("+", 1)
    if left == "encode":
        compress = COMPRESSORS[right][0]
        return lambda: prepared.encode_all(compress)
    compress, decompress = COMPRESSORS[left]
    packed = prepared.encode_all(compress)
    return lambda: _drain(prepared.decode_all(packed, decompress))


def peak_alloc(op: Op) -> int:
    """Peak traced heap growth during one call (outside the timed samples)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        op()
        _, peak = tracemalloc.get_traced_memory()
        return max(0, peak - base)
    finally:
        tracemalloc.stop()


def prepare_cell(
    codec: Codec,
    dataset: str,
    data_path: str,
    check_path: str,
    operations: list[str],
    dump_path: str | None = None,
    decode_from: str | None = None,
) -> tuple[dict[str, Any], dict[str, Op]]:
    """The `prepared` reply's fields, and the operations ready to sample (none unless ok)."""
    prepared = prepare(codec, dataset, data_path)
    foreign = Path(decode_from).read_bytes() if decode_from else None
    ok, detail, encoded = check(prepared, dataset, check_path, foreign)
    reply: dict[str, Any] = {
        "status": "ok" if ok else "check_failed",
        "check": {"ok": ok, "detail": detail},
        "messages": prepared.count,
        "error": None,
    }
    if foreign is not None:  # a compatibility check: the other runner's bytes, decode only
        reply["sizes"] = {"encoded": len(foreign)}
        reply["unsupported"] = [op for op in operations if op != "decode"]
        ops = {"decode": operation(prepared, "decode", foreign)} if ok else {}
        return reply, ops if "decode" in operations else {}
    if dump_path is not None:
        Path(dump_path).write_bytes(encoded)
    sizes = {"encoded": len(encoded)}
    sizes.update({c: prepared.compressed_size(fns[0]) for c, fns in COMPRESSORS.items()})
    reply["sizes"] = sizes
    reply["unsupported"] = []
    if not ok:
        return reply, {}
    return reply, {name: operation(prepared, name, encoded) for name in operations}
