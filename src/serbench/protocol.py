"""Protocol v2's JSON Schema (docs/runner-protocol.schema.json): validation and vocabularies.

The schema is the one source of truth for every message and for the label, status, error
code and report flag vocabularies; this module only reads it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from serbench.paths import REPO_ROOT

SCHEMA_PATH = REPO_ROOT / "docs" / "runner-protocol.schema.json"


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


@cache
def validator(definition: str) -> Draft202012Validator:
    return Draft202012Validator({"$defs": schema()["$defs"], "$ref": f"#/$defs/{definition}"})


def problem(definition: str, instance: Any) -> str | None:
    """None when instance is a valid `definition`, else the first error with its path."""
    error = next(iter(validator(definition).iter_errors(instance)), None)
    if error is None:
        return None
    where = "$" + "".join(f"[{p!r}]" for p in error.absolute_path)
    return f"at {where}: {error.message[:300]}"


def vocabulary(name: str) -> dict[str, str]:
    """A vocabulary (label, status, error_code, flag): each word with its meaning."""
    return {v["const"]: v["description"] for v in schema()["$defs"][name]["oneOf"]}


LABELS = vocabulary("label")
FLAGS = vocabulary("flag")
