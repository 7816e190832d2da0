"""One cell: a serializer on a dataset, checked first, then timed operation by operation."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench_runner_python import dataset as datasets
from serbench_runner_python.compress import COMPRESSORS
from serbench_runner_python.framing import decode_stream, encode_stream, varint
from serbench_runner_python.sample import Op
from serbench_runner_python.serializers import REGISTRY
from serbench_runner_python.serializers.base import Codec, NotApplicable
from serbench_runner_python.tree import first_difference, load_items


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


@dataclass
class Bound:
    """A serializer's codec on a dataset's trees, with what decoded values must equal."""

    codec: Codec
    items: list[Any]  # the trees, one per distinct item
    count: int
    framing: str
    expected: list[Any]  # from check_data (default: the items themselves)

    def prepared(self) -> Prepared:
        return Prepared(
            self.codec, self.framing, [self.codec.prepare(m) for m in self.items], self.count
        )


def _carryable(items: list[Any], codec: Codec) -> None:
    """NotApplicable naming the first value the format cannot carry."""
    if codec.limits is None:
        return
    for i, item in enumerate(items):
        found = codec.limits(item)
        if found:
            where = found[0] if len(items) == 1 else f"message {i} {found[0]}"
            reason = found[1]
            if reason.startswith("top-level"):
                raise NotApplicable(f"{codec.fmt}: {reason}")
            value, _, rest = reason.partition(" ")
            raise NotApplicable(f"{codec.fmt}: {value} at {where} {rest}")


def bind(serializer: str, desc: dict[str, Any]) -> Bound:
    """The serializer on the command's dataset (sections 3 and 7); NotApplicable if it
    cannot take it, KeyError for an unknown serializer or dataset."""
    ds = datasets.from_request(desc)
    codec = REGISTRY[serializer].codec(ds)
    name = ds.name if ds.kind == "builtin" else None
    items, count, framing = load_items(desc["data"], ds.types.message, name)
    if ds.kind == "user":  # the built-in datasets fit every format that takes them
        _carryable(items, codec)
    check = desc.get("check_data") or desc["data"]
    expected = items if check == desc["data"] else load_items(check, ds.types.message, name)[0]
    return Bound(codec, items, count, framing, expected)


def compare(
    prepared: Prepared, encoded: bytes, expected: list[Any], count: int
) -> tuple[bool, str]:
    """Decode every message of ``encoded`` and compare it with the expected one."""
    to_native = prepared.codec.to_native
    n = 0
    for i, value in enumerate(prepared.decode_all(encoded)):
        if i >= count:
            return False, f"decoded more than the {count} messages encoded"
        diff = first_difference(expected[i % len(expected)], to_native(value))
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


def _encode(bound: Bound, prepared: Prepared, user: bool) -> bytes:
    try:
        return prepared.encode_all()
    except (OverflowError, TypeError, ValueError) as exc:
        if not user:
            raise
        fmt = bound.codec.fmt
        raise NotApplicable(f"{fmt}: cannot encode: {type(exc).__name__}: {exc}") from None


def prepare_cell(cmd: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Op]]:
    """The `prepared` reply's fields, and the operations ready to sample (none unless ok).
    Raises NotApplicable, and OSError/ValueError/KeyError for bad data."""
    bound = bind(cmd["serializer"], cmd["dataset"])
    operations = list(cmd["operations"])
    prepared = bound.prepared()
    decode_from = cmd.get("decode_from")
    foreign = Path(decode_from).read_bytes() if decode_from else None
    user = cmd["dataset"].get("kind") == "user"
    encoded = _encode(bound, prepared, user) if foreign is None else foreign
    # an earlier process of the run checked this cell and holds its sizes (section 4)
    verify = cmd.get("verify", True) is not False or foreign is not None
    check: dict[str, Any] | None = None
    ok = True
    if verify:
        try:
            ok, detail = compare(prepared, encoded, bound.expected, bound.count)
        except Exception as exc:  # a library that cannot read bytes back: the check fails
            what = "cannot decode" if foreign is not None else "cannot decode its own bytes"
            ok, detail = False, f"{what}: {type(exc).__name__}: {exc}"[:300]
        check = {"ok": ok, "detail": detail}
    reply: dict[str, Any] = {
        "status": "ok" if ok else "check_failed",
        "check": check,
        "messages": prepared.count,
        "error": None,
    }
    if foreign is not None:  # a compatibility check: the other runner's bytes, decode only
        reply["sizes"] = {"encoded": len(foreign)}
        reply["unsupported"] = [op for op in operations if op != "decode"]
        ops = {"decode": operation(prepared, "decode", foreign)} if ok else {}
        return reply, ops if "decode" in operations else {}
    if cmd.get("dump_path"):
        Path(cmd["dump_path"]).write_bytes(encoded)
    sizes = {"encoded": len(encoded)}
    if verify:
        sizes.update({c: prepared.compressed_size(fns[0]) for c, fns in COMPRESSORS.items()})
    reply["sizes"] = sizes
    reply["unsupported"] = []
    if not ok:
        return reply, {}
    return reply, {name: operation(prepared, name, encoded) for name in operations}
