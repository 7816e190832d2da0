"""S5 log-records: a parsed log cached as one big list of records (.NET, 2010)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from serbench.datasets.spec import DatasetSpec, Scale

RECORDS = {"quick": 1_000, "standard": 20_000, "full": 100_000}  # full: the seed's
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
BASE_DAY = datetime(1999, 12, 11, tzinfo=UTC)
MS_PER_DAY = 86_400_000


def generate(scale: Scale) -> tuple[list[Any], int]:
    n = RECORDS[scale]
    base_ms = (BASE_DAY - EPOCH) // timedelta(milliseconds=1)
    records = []
    for i in range(1, n + 1):
        text = str(i)
        records.append(
            {
                "MyProperty1": f"hoge{i}",
                "MyProperty2": i,
                "MyProperty3": base_ms + i * MS_PER_DAY,
                "MyProperty4": i % 2 == 0,
                "MyProperty5": [{"key": str(k), "value": text} for k in range(1, 11)],
            }
        )
    return [records], 1


SPEC = DatasetSpec(
    name="log-records",
    scenario="S5",
    title="a cached log of records, 100,000 in the seed (C# on .NET, 2010)",
    framing="single",
    generate=generate,
    schema_dir="log-records",
    timestamp_fields=("MyProperty3",),
)
