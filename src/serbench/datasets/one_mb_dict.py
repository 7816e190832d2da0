"""S3 one-mb-dict: a map of three long strings sent between two devices (iOS, 2012)."""

from __future__ import annotations

import string
from typing import Any

from serbench.datasets.spec import DatasetSpec, Scale

LENGTHS = {"key1": 300_000, "key2": 300_000, "key3": 400_000}


def _alphabet_run(length: int) -> str:
    letters = string.ascii_lowercase
    reps, rest = divmod(length, len(letters))
    return letters * reps + letters[:rest]


def generate(scale: Scale) -> tuple[list[Any], int]:
    # 1 MB is the point of the scenario, so every scale keeps it whole.
    return [{key: _alphabet_run(n) for key, n in LENGTHS.items()}], 1


SPEC = DatasetSpec(
    name="one-mb-dict",
    scenario="S3",
    title="a 1 MB map of three strings (Objective-C on iOS, 2012)",
    framing="single",
    generate=generate,
    schema_dir="one-mb-dict",
)
