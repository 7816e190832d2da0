"""`prepare` of a user dataset (``"kind": "user"``) in the Python runner."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench.runner_py.cell import Prepared, compare, operation
from serbench.runner_py.framing import COMPRESSORS
from serbench.runner_py.serializers.base import Codec, NotApplicable
from serbench.runner_py.timing import Op
from serbench.runner_py.user_codecs import Limits, user_codec
from serbench.runner_py.user_tree import first_difference, load_items, load_types


def _failed(cell: str, status: str, code: str, message: str) -> dict[str, Any]:
    return {
        "event": "prepared",
        "cell": cell,
        "status": status,
        "check": None,
        "messages": None,
        "sizes": None,
        "unsupported": [],
        "error": {"code": code, "message": message[:1000]},
    }


@dataclass
class UserData:
    """A user dataset bound to a serializer, for the socket transport (section 9)."""

    codec: Codec
    items: list[Any]  # the generic trees, one per distinct item
    expected: list[Any]  # what the receiver compares with (check_data, else items)
    first_difference: Callable[[Any, Any], str | None]


def _carryable(items: list[Any], limits: Limits | None, fmt: str) -> None:
    """NotApplicable naming the first value the format cannot carry."""
    if limits is None:
        return
    for i, item in enumerate(items):
        found = limits(item)
        if found:
            where = found[0] if len(items) == 1 else f"message {i} {found[0]}"
            reason = found[1]
            if reason.startswith("top-level"):
                raise NotApplicable(f"{fmt}: {reason}")
            value, _, rest = reason.partition(" ")
            raise NotApplicable(f"{fmt}: {value} at {where} {rest}")


def user_transport(serializer: str, dataset: dict[str, Any]) -> UserData:
    types = load_types(dataset["types"])
    items = load_items(dataset["data"], types)[0]
    codec, limits, fmt = user_codec(serializer, types, dataset.get("schemas") or {})
    _carryable(items, limits, fmt)
    check = dataset.get("check_data")
    expected = items if not check or check == dataset["data"] else load_items(check, types)[0]
    return UserData(codec, items, expected, first_difference)


def prepare_user(cmd: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Op]]:
    """The `prepared` reply and the operations to sample (none unless the check passed)."""
    cell, serializer, dataset = cmd["cell"], cmd["serializer"], cmd["dataset"]
    operations = list(cmd["operations"])
    try:
        types = load_types(dataset["types"])
        items, count, framing = load_items(dataset["data"], types)
        codec, limits, fmt = user_codec(serializer, types, dataset.get("schemas") or {})
        _carryable(items, limits, fmt)
        prepared = Prepared(codec, framing, [codec.prepare(m) for m in items], count)
        check_path = dataset.get("check_data") or dataset["data"]
        expected = items if check_path == dataset["data"] else load_items(check_path, types)[0]
        decode_from = cmd.get("decode_from")
        foreign = Path(decode_from).read_bytes() if decode_from else None
        try:
            encoded = prepared.encode_all() if foreign is None else foreign
        except (OverflowError, TypeError, ValueError) as exc:
            raise NotApplicable(f"{fmt}: cannot encode: {type(exc).__name__}: {exc}") from None
        try:
            ok, detail = compare(prepared, encoded, expected, count, first_difference)
        except Exception as exc:
            if foreign is None:
                raise
            ok, detail = False, f"cannot decode: {type(exc).__name__}: {exc}"[:300]
    except NotApplicable as exc:
        return _failed(cell, "not_applicable", "not_applicable", str(exc)), {}
    except (OSError, ValueError, KeyError) as exc:
        return _failed(cell, "error", "bad_data", _exception(exc)), {}
    except Exception as exc:  # a library failing must not take the other cells down
        return _failed(cell, "error", "exception", _exception(exc)), {}
    reply: dict[str, Any] = {
        "event": "prepared",
        "cell": cell,
        "status": "ok" if ok else "check_failed",
        "check": {"ok": ok, "detail": detail},
        "messages": count,
        "error": None,
    }
    if foreign is not None:
        reply["sizes"] = {"encoded": len(foreign)}
        reply["unsupported"] = [op for op in operations if op != "decode"]
        ops = {"decode": operation(prepared, "decode", foreign)} if ok else {}
        return reply, ops if "decode" in operations else {}
    if cmd.get("dump_path"):
        Path(cmd["dump_path"]).write_bytes(encoded)
    sizes = {"encoded": len(encoded)}
    sizes.update({c: prepared.compressed_size(fns[0]) for c, fns in COMPRESSORS.items()})
    reply["sizes"] = sizes
    reply["unsupported"] = []
    if not ok:
        return reply, {}
    return reply, {name: operation(prepared, name, encoded) for name in operations}


def _exception(exc: BaseException) -> str:
    where = traceback.format_exc(limit=3).strip().splitlines()[-1]
    return f"{type(exc).__name__}: {exc} ({where})"[:500]
