"""The public conformance suites vendored under testdata/conformance/, as cases.

Each folder keeps its licence: JSONTestSuite (nst/JSONTestSuite, MIT), JSON_checker (as
shipped by miloyip/nativejson-benchmark, MIT), msgpack-test-suite (kawanet, MIT) and the
CBOR working group's test vectors (cbor-wg/cbor-test-vectors, BSD-2-Clause, converted to
cases.json by vendor_cbor.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from serbench.paths import REPO_ROOT

SUITES_DIR = REPO_ROOT / "testdata" / "conformance"
Expect = Literal["accept", "reject", "either"]


@dataclass(frozen=True)
class Case:
    suite: str
    name: str
    data: bytes
    expect: Expect
    value: Any = None  # the canonical value an accepting decoder must give; None: any
    has_value: bool = False
    encodings: tuple[bytes, ...] = field(default=())  # valid encodings of value (encode side)


def _json_value(data: bytes) -> tuple[Any, bool]:
    try:
        return json.loads(data), True
    except ValueError:
        return None, False


def jsontestsuite(root: Path = SUITES_DIR / "jsontestsuite") -> list[Case]:
    cases = []
    for path in sorted((root / "test_parsing").glob("*.json")):
        data = path.read_bytes()
        expect: Expect = {"y": "accept", "n": "reject"}.get(path.name[0], "either")
        value, ok = _json_value(data) if expect == "accept" else (None, False)
        cases.append(Case("JSONTestSuite", path.stem, data, expect, value, ok))
    return cases


def jsonchecker(root: Path = SUITES_DIR / "jsonchecker") -> list[Case]:
    cases = []
    for path in sorted(root.glob("*.json")):
        data = path.read_bytes()
        if "EXCLUDE" in path.stem:
            expect: Expect = "either"
        else:
            expect = "accept" if path.name.startswith("pass") else "reject"
        value, ok = _json_value(data) if expect == "accept" else (None, False)
        cases.append(Case("JSON_checker", path.stem, data, expect, value, ok))
    return cases


def _msgpack_value(kind: str, raw: Any) -> Any:
    if kind == "binary":
        return {"$bytes": raw.replace("-", "")}
    if kind == "bignum":
        return int(raw)
    if kind == "timestamp":
        return {"$timestamp": list(raw)}
    if kind == "ext":
        return {"$ext": [raw[0], raw[1].replace("-", "")]}
    return raw


def msgpack_suite(root: Path = SUITES_DIR / "msgpack-test-suite") -> list[Case]:
    doc = json.loads((root / "msgpack-test-suite.json").read_text())
    cases = []
    for group, entries in doc.items():
        for i, entry in enumerate(entries):
            kind = next(k for k in entry if k != "msgpack")
            value = _msgpack_value(kind, entry[kind])
            encodings = tuple(bytes.fromhex(h.replace("-", "")) for h in entry["msgpack"])
            for enc in encodings:
                name = f"{group.removesuffix('.yaml')}#{i} {enc.hex()[:24]}"
                cases.append(
                    Case("msgpack-test-suite", name, enc, "accept", value, True, encodings)
                )
    return cases


def cbor_vectors(root: Path = SUITES_DIR / "cbor-test-vectors") -> list[Case]:
    doc = json.loads((root / "cases.json").read_text())
    return [
        Case(
            "cbor-test-vectors",
            c["name"],
            bytes.fromhex(c["hex"]),
            c["expect"],
            c.get("value"),
            "value" in c,
        )
        for c in doc["cases"]
    ]


def for_format(fmt: str) -> list[Case]:
    """Every decode case of a format (empty for a format without a vendored suite)."""
    if fmt == "json":
        return jsontestsuite() + jsonchecker()
    if fmt == "msgpack":
        return msgpack_suite()
    if fmt == "cbor":
        return cbor_vectors()
    return []


def encode_cases(fmt: str) -> list[Case]:
    """Values with their valid encodings: the encode direction (MessagePack)."""
    if fmt != "msgpack":
        return []
    seen: dict[str, Case] = {}
    for case in msgpack_suite():
        seen.setdefault(case.name.split(" ")[0], case)
    return list(seen.values())


FORMATS = ("json", "msgpack", "cbor")
