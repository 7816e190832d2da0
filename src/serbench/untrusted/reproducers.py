"""Inputs that crashed, hung or exhausted memory, kept as files named by their hash."""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path

from serbench.paths import state_dir


def directory() -> Path:
    return state_dir() / "untrusted" / "reproducers"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def save(data: bytes, root: Path | None = None) -> Path:
    root = root or directory()
    root.mkdir(parents=True, exist_ok=True)
    path = root / f"{sha256(data)[:16]}.bin"
    if not path.exists():
        path.write_bytes(data)
    return path


def replay_robustness(runner: str, serializer: str, dataset: str | None, path: Path) -> str:
    parts = ["serbench", "robustness", "-r", runner, "-s", serializer]
    if dataset:
        parts += ["-d", dataset]
    return shlex.join([*parts, "--inputs", str(path)])


def replay_conformance(runner: str, serializer: str, case: str) -> str:
    return shlex.join(["serbench", "conformance", "-r", runner, "-s", serializer, "--case", case])
