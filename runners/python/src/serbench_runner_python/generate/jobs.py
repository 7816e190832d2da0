"""What to generate: every built-in dataset and every registered user dataset."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from serbench_runner_python.typelang import identifier


@dataclass(frozen=True)
class Job:
    kind: str  # "builtin" or "user"
    name: str
    types: Path
    message: str  # the type of one message
    proto: Path | None  # the .proto whose classes protobuf uses
    proto_root: str | None  # its root message, when the schema names it
    avsc: Path | None  # built-ins: the Avro schema, embedded (user datasets name theirs)

    @property
    def module(self) -> str:
        return f"{self.kind}_{identifier(self.name)}"


def _first(folder: Path, pattern: str) -> Path | None:
    found = sorted(folder.glob(pattern))
    return found[0] if found else None


def builtin_jobs(datasets_dir: Path, schemas_dir: Path | None) -> list[Job]:
    """datasets/<family>/types.json; schemas from ``schemas_dir/<family>`` when it exists,
    else beside the types file."""
    jobs = []
    for types in sorted(datasets_dir.glob("*/types.json")):
        family = types.parent.name
        doc = json.loads(types.read_text())
        messages = doc["message"] if isinstance(doc["message"], dict) else {family: doc["message"]}
        folder = types.parent
        if schemas_dir is not None and (schemas_dir / family).is_dir():
            folder = schemas_dir / family
        proto, avsc = _first(folder, "*.proto"), _first(folder, "*.avsc")
        for name, message in messages.items():
            jobs.append(Job("builtin", name, types, message, proto, None, avsc))
    return jobs


def user_jobs(registry: Path | None) -> list[Job]:
    """Registered user datasets: ``registry/<name>/dataset.json``."""
    if registry is None or not registry.is_dir():
        return []
    jobs = []
    for meta_path in sorted(registry.glob("*/dataset.json")):
        meta, folder = json.loads(meta_path.read_text()), meta_path.parent
        types = folder / meta["types"]
        proto = (meta.get("schemas") or {}).get("proto") or {}
        path = folder / proto["path"] if "path" in proto else None
        message = json.loads(types.read_text())["message"]
        jobs.append(Job("user", meta["name"], types, message, path, proto.get("message"), None))
    return jobs
