"""S1 android-users: 30 SampleData records exchanged between a phone and a watch."""

from __future__ import annotations

import random
from typing import Any

from serbench.datasets.spec import DatasetSpec, Scale

SEED = 20160601
RECORDS = 30


def generate(scale: Scale) -> tuple[list[Any], int]:
    # The scenario is small already: every scale uses the same 30 records.
    rng = random.Random(SEED)
    records = []
    for i in range(RECORDS):
        records.append(
            {
                "id": i,
                "name": f"user {i}",
                "age": rng.randrange(50),
                "gender": rng.randrange(2),
                "isMegane": rng.randrange(2) == 1,
            }
        )
    return [records], 1


SPEC = DatasetSpec(
    name="android-users",
    scenario="S1",
    title="30 user records, phone <-> watch (Java on Android, 2016)",
    framing="single",
    generate=generate,
    schema_dir="android-users",
)
