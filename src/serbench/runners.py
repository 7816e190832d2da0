"""Finding runners (runners/<name>/runner.json) and asking them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from serbench import PROTOCOL_VERSION
from serbench.client import Description
from serbench.paths import DATASETS_DIR, RUNNERS_DIR
from serbench.timing import DESCRIBE_TIMEOUT_S, HELD_PER_CELL, JitKind
from serbench.userdata.registry import registry_dir
from serbench.userdata.schemas.builtin import ENV as schemas_env


@dataclass(frozen=True)
class RunnerSpec:
    name: str
    language: str
    directory: Path
    command: list[str]
    build: list[list[str]] = field(default_factory=list)
    test: list[list[str]] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)
    jit: JitKind = None  # how the runtime compiles while it runs (timing.JitKind)
    # its build generates a typed model per dataset, user datasets included: registering
    # one rebuilds it
    typed_model: bool = False
    # one of its processes holds about this many times a prepared cell's canonical size
    # (runner.json "held_per_cell", measured; the orchestrator sizes blocks by it)
    held_per_cell: float = HELD_PER_CELL

    def missing_tools(self) -> list[str]:
        return [tool for tool in self.requires if shutil.which(tool) is None]


def load(manifest: Path) -> RunnerSpec:
    """One runner from its runner.json."""
    raw = json.loads(manifest.read_text())
    return RunnerSpec(
        name=raw["name"],
        language=raw.get("language", raw["name"]),
        directory=manifest.parent,
        command=list(raw["command"]),
        build=[list(c) for c in raw.get("build", [])],
        test=[list(c) for c in raw.get("test", [])],
        requires=list(raw.get("requires", [])),
        jit=jit_kind(raw.get("jit"), manifest),
        typed_model=_flag(raw, "typed_model", manifest),
        held_per_cell=_positive(raw, "held_per_cell", HELD_PER_CELL, manifest),
    )


def discover(root: Path = RUNNERS_DIR) -> dict[str, RunnerSpec]:
    specs = [load(manifest) for manifest in sorted(root.glob("*/runner.json"))]
    return {spec.name: spec for spec in specs}


def jit_kind(raw: object, manifest: Path) -> JitKind:
    """runner.json's "jit": "tiered", "once", or absent/false; true means "tiered"."""
    if raw in (None, False):
        return None
    if raw is True or raw == "tiered":
        return "tiered"
    if raw == "once":
        return "once"
    raise ValueError(f'{manifest}: "jit" must be "tiered", "once" or false, not {raw!r}')


def _flag(raw: dict[str, Any], key: str, manifest: Path) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f'{manifest}: "{key}" must be true or false, not {value!r}')
    return value


def _positive(raw: dict[str, Any], key: str, default: float, manifest: Path) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f'{manifest}: "{key}" must be a positive number, not {value!r}')
    return float(value)


class RunnerUnavailable(RuntimeError):
    pass


def describe(spec: RunnerSpec, timeout: float = DESCRIBE_TIMEOUT_S) -> Description:
    """The runner's discovery answer, or RunnerUnavailable naming what went wrong."""
    missing = spec.missing_tools()
    if missing:
        raise RunnerUnavailable(f"needs {', '.join(missing)} on PATH")
    try:
        proc = subprocess.run(
            [*spec.command, "describe"],
            cwd=spec.directory,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunnerUnavailable(f"describe failed: {exc}") from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise RunnerUnavailable(
            f"describe exited {proc.returncode} (not built? run `serbench build`): "
            + " | ".join(tail)
        )
    try:
        answer = json.loads(proc.stdout)
    except ValueError as exc:
        raise RunnerUnavailable(f"describe printed malformed JSON: {exc}") from exc
    if answer.get("protocol") != PROTOCOL_VERSION:
        raise RunnerUnavailable(
            f"speaks protocol {answer.get('protocol')!r}, serbench speaks {PROTOCOL_VERSION}"
        )
    return answer


def describe_all(
    specs: dict[str, RunnerSpec],
) -> tuple[dict[str, Description], dict[str, str]]:
    """Each runner's discovery answer, and why each runner that gave none is unavailable."""
    describes, unavailable = {}, {}
    for name, spec in specs.items():
        try:
            describes[name] = describe(spec)
        except RunnerUnavailable as exc:
            unavailable[name] = str(exc)
    return describes, unavailable


def build_environment() -> dict[str, str]:
    """What every runner build sees besides the caller's environment: where the built-in
    datasets' and the registered user datasets' folders are (the latter may not exist)."""
    return {
        "SERBENCH_DATASETS_DIR": str(DATASETS_DIR.resolve()),
        "SERBENCH_USER_DATASETS_DIR": str(registry_dir().resolve()),
    }


def build(spec: RunnerSpec, log: Path, schemas: Path) -> None:
    """Run the runner's build commands; output to log; RunnerUnavailable on failure.
    ``schemas``: the folder of the built-in datasets' schemas (written from their types.json)."""
    env = {**os.environ, **build_environment(), schemas_env: str(schemas)}
    missing = spec.missing_tools()
    if missing:
        raise RunnerUnavailable(f"needs {', '.join(missing)} on PATH")
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        for command in spec.build:
            out.write(f"$ {' '.join(command)}\n")
            out.flush()
            code = subprocess.run(
                command,
                cwd=spec.directory,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            ).returncode
            if code != 0:
                out.flush()
                tail = " | ".join(log.read_text(errors="replace").strip().splitlines()[-2:])
                raise RunnerUnavailable(
                    f"`{' '.join(command)}` exited {code}: {tail[-300:]}; see {log}"
                )


# The Python runner, which serbench's own probes (noise) and tests start directly.
PYTHON = load(RUNNERS_DIR / "python" / "runner.json")
