"""fastavro's container files for Avro's interop test (protocol section 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from serbench_runner_python import avro_container, canonical

INTEROP = Path(__file__).resolve().parents[3] / "testdata" / "conformance" / "avro-interop"
SCHEMA = json.loads((INTEROP / "interop.avsc").read_text())
RECORDS = json.loads((INTEROP / "datum.json").read_text(encoding="utf-8"))["records"]


@pytest.mark.parametrize("codec", ["null", "deflate"])
def test_datum_reads_back(codec: str) -> None:
    data = avro_container.write(SCHEMA, codec, RECORDS)
    assert data[:4] == b"Obj\x01"
    assert canonical.to_json(avro_container.read(data)) == RECORDS


def test_truncated_file_is_rejected() -> None:
    data = avro_container.write(SCHEMA, "null", RECORDS)
    with pytest.raises(avro_container.REJECTS):
        avro_container.read(data[: len(data) // 2])
