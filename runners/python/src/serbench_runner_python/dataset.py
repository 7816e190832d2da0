"""A dataset as the serializers see it: its types, schemas and generated typed model."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from serbench_runner_python import model
from serbench_runner_python.errors import NotApplicable
from serbench_runner_python.typelang import Types, load_types, parse_types, sha256


@dataclass
class Dataset:
    name: str
    kind: str  # "builtin" or "user"
    types: Types
    schemas: dict[str, Any]  # kind -> {"path": ...} or {"unavailable": reason} (section 7)
    generated: ModuleType | str  # the typed model, or why there is none

    def typed(self) -> ModuleType:
        """The generated model; NotApplicable with the reason when it is missing."""
        if isinstance(self.generated, str):
            raise NotApplicable(self.generated)
        return self.generated


def builtin(name: str) -> Dataset:
    """A built-in dataset (KeyError when the build did not find it)."""
    generated = model.builtin(name)
    schemas: dict[str, Any] = {}
    if generated.AVSC is not None:
        schemas["avsc"] = {"schema": generated.AVSC}
    types = parse_types(generated.TYPES, generated.MESSAGE)
    return Dataset(name, "builtin", types, schemas, generated)


def from_request(dataset: dict[str, Any]) -> Dataset:
    """The dataset object of a command (section 3; user datasets: section 7)."""
    if dataset.get("kind") != "user":
        return builtin(dataset["name"])
    types_path = dataset["types"]
    generated = model.user(dataset["name"], sha256(types_path))
    return Dataset(
        dataset["name"], "user", load_types(types_path), dataset.get("schemas") or {}, generated
    )
