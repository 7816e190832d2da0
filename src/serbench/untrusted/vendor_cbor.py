"""Turn the vendored cbor-wg/cbor-test-vectors files into cases.json (run once, by hand).

The vectors ship as CBOR documents; the orchestrator reads JSON, so this converts them
with cbor2 (installed for the Python runner): `python -m serbench.untrusted.vendor_cbor`.
Expected values use the canonical JSON of docs/runner-protocol.md section 11 and are
kept only where they are plain data (no tags, no simple values), so every library's
generic value can be compared with them.
"""

from __future__ import annotations

import contextlib
import json
import math
from typing import Any

import cbor2

from serbench.untrusted.suites import SUITES_DIR

ROOT = SUITES_DIR / "cbor-test-vectors"


class NotPlain(ValueError):
    pass


def plain(value: Any) -> Any:
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {
            "$float": "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        }
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: plain(v) for k, v in value.items()}
        return {"$map": [[plain(k), plain(v)] for k, v in value.items()]}
    raise NotPlain(type(value).__name__)


def main() -> None:
    cases = []
    for path in sorted(ROOT.glob("tests/*/*.cbor")):
        doc = cbor2.loads(path.read_bytes(), max_depth=100_000)
        group = f"{path.parent.name}/{path.stem}"
        for i, test in enumerate(doc["tests"]):
            case: dict[str, Any] = {
                "name": f"{group}#{i} {test.get('description', '')}".strip(),
                "hex": bytes(test["encoded"]).hex(),
                "expect": "reject" if doc.get("fail") or test.get("fail") else "accept",
            }
            if case["expect"] == "accept":
                with contextlib.suppress(NotPlain, KeyError, RecursionError):
                    case["value"] = plain(test["decoded"])
            cases.append(case)
    out = ROOT / "cases.json"
    out.write_text(json.dumps({"source": "cbor-wg/cbor-test-vectors", "cases": cases}, indent=1))
    print(f"{len(cases)} cases -> {out}")


if __name__ == "__main__":
    main()
