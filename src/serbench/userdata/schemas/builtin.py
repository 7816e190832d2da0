"""The built-in datasets' schemas, written from datasets/<family>/types.json into
<state>/gen/schemas/<family>/<family_snake>.<kind> before the runners build."""

from __future__ import annotations

import json
from pathlib import Path

from serbench.paths import DATASETS_DIR, state_dir
from serbench.userdata.schemas.generate import Schema, write
from serbench.userdata.schemas.model import load

ENV = "SERBENCH_SCHEMAS_DIR"  # how a runner build learns the folder


def schemas_dir() -> Path:
    return state_dir() / "gen" / "schemas"


def families(datasets: Path = DATASETS_DIR) -> list[Path]:
    return sorted(p.parent for p in datasets.glob("*/types.json"))


def write_family(family: Path, out: Path | None = None) -> Path:
    """Write every kind for one built-in family (a folder holding types.json) into
    ``out``/<family>/; a built-in must map to all of them."""
    folder = (out or schemas_dir()) / family.name
    package = family.name.replace("-", "_")
    ds = load(json.loads((family / "types.json").read_text()), package, "seed")
    missing = {
        k: str(v) for k, v in write(ds, folder, package).items() if not isinstance(v, Schema)
    }
    if missing:
        raise ValueError(f"{family / 'types.json'}: no schema for {missing}")
    return folder


def write_all(out: Path | None = None, datasets: Path = DATASETS_DIR) -> Path:
    """Write every kind for every built-in family; the folder holding them."""
    out = out or schemas_dir()
    for family in families(datasets):
        write_family(family, out)
    return out
