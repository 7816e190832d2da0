"""S6 mesh: a triangle mesh of 32-bit floats (Rust, rust_serialization_benchmark).

Each coordinate is drawn as that benchmark draws an f32, uniform on [0, 1) in steps
of 2^-24, so every value is a float32 exactly and its canonical JSON (the double's
shortest form) reads back into the same float32 in every language.
"""

from __future__ import annotations

import random
from typing import Any

from serbench.datasets.spec import DatasetSpec, Scale

SEED = 20230425
TRIANGLES = {"quick": 1_000, "standard": 25_000, "full": 125_000}  # full: the seed's
STEPS = 1 << 24  # a float32's mantissa: k / 2^24 is exact for every k below it


def _vector(rng: random.Random) -> dict[str, float]:
    return {axis: rng.randrange(STEPS) / STEPS for axis in ("x", "y", "z")}


def generate(scale: Scale) -> tuple[list[Any], int]:
    rng = random.Random(SEED)
    triangles = [
        {corner: _vector(rng) for corner in ("v0", "v1", "v2", "normal")}
        for _ in range(TRIANGLES[scale])
    ]
    return [{"triangles": triangles}], 1


SPEC = DatasetSpec(
    name="mesh",
    scenario="S6",
    title="float32-vector triangles, 125,000 in the seed (Rust, rust_serialization_benchmark)",
    framing="single",
    generate=generate,
    schema_dir="mesh",
)
