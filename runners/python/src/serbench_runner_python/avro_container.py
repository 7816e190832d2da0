"""Avro object container files (docs/runner-protocol.md section 11, `avro_container`):
fastavro's own writer and reader, for Avro's interop test across runners.

The canonical JSON is converted by the schema: `$bytes` becomes bytes (for `bytes` and
`fixed`), `$float` a float; fastavro resolves unions itself, taking the first branch
whose type the value has, as the protocol asks.
"""

from __future__ import annotations

import io
import zlib
from typing import Any

import fastavro
import fastavro.read

from serbench_runner_python import canonical

ROWS = ("fastavro",)
# what fastavro raises for a file it cannot read: a bad header or block (ValueError and its
# SchemaResolutionError), input that ends early (EOFError), a bad deflate block (zlib.error)
REJECTS: tuple[type[BaseException], ...] = (
    ValueError,
    EOFError,
    zlib.error,
    fastavro.read.SchemaResolutionError,
)


def write(schema: dict[str, Any], codec: str, records: list[Any]) -> bytes:
    parsed = fastavro.parse_schema(schema, named_schemas={})
    out = io.BytesIO()
    fastavro.writer(out, parsed, [canonical.from_json(r) for r in records], codec=codec)
    return out.getvalue()


def read(data: bytes) -> list[Any]:
    return list(fastavro.reader(io.BytesIO(data)))
