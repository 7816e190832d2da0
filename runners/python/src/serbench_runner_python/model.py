"""The generated typed models at run time: finding them, and what their code calls."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from serbench_runner_python.errors import NotApplicable
from serbench_runner_python.tree import EPOCH

RUNNER_DIR = Path(__file__).resolve().parents[2]
NOT_BUILT = "typed model not built for this dataset's types: run `serbench build -r python`"
MS = datetime(1970, 1, 1, 0, 0, 0, 1000, tzinfo=UTC) - EPOCH  # one millisecond


def model_dir() -> Path:
    """Where the build writes the models (SERBENCH_PYTHON_MODEL_DIR overrides)."""
    override = os.environ.get("SERBENCH_PYTHON_MODEL_DIR")
    return Path(override) if override else RUNNER_DIR / "build" / "model"


def _index(folder: Path) -> dict[str, dict[str, str]]:
    """Dataset -> module, per kind (read each time: a build may have run since)."""
    path = folder / "index.json"
    if not path.exists():
        return {"builtin": {}, "user": {}}
    return json.loads(path.read_text())


def _module(folder: Path, module: str) -> ModuleType:
    path = folder / f"{module}.py"
    return _load(path, path.stat().st_mtime_ns)


@cache
def _load(path: Path, _mtime_ns: int) -> ModuleType:
    """A generated module, loaded again only when a build rewrote it."""
    name = f"serbench_model_{path.stem}_{_mtime_ns}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded  # msgspec resolves the Structs' annotations through it
    spec.loader.exec_module(loaded)
    return loaded


def builtin_names() -> list[str]:
    """The built-in datasets, as the build found them."""
    return list(_index(model_dir())["builtin"])


def builtin(name: str) -> ModuleType:
    folder = model_dir()
    module = _index(folder)["builtin"].get(name)
    if module is None:
        raise KeyError(name)
    return _module(folder, module)


def user(name: str, types_sha256: str) -> ModuleType | str:
    """The user dataset's model, or why there is none (built for other types, or not)."""
    folder = model_dir()
    module = _index(folder)["user"].get(name)
    if module is None:
        return NOT_BUILT
    loaded = _module(folder, module)
    return loaded if types_sha256 == loaded.TYPES_SHA256 else NOT_BUILT


# ---- called by the generated code -----------------------------------------------------


def ms_of(value: datetime) -> int:
    return (value - EPOCH) // MS


def at_ms(ms: int) -> datetime:
    return EPOCH + timedelta(milliseconds=ms)


def hw_rest(data: bytes | memoryview, pos: int) -> None:
    """The handwritten layout's end: the input must end where the message does."""
    if pos > len(data):
        raise ValueError(f"handwritten: truncated: {pos} bytes needed, {len(data)} given")
    if pos < len(data):
        raise ValueError(f"handwritten: {len(data) - pos} trailing bytes")


def no_nulls(values: list[Any], path: str) -> list[Any]:
    """``list<null>`` in protobuf: a repeated bool that stays empty; nulls have no encoding."""
    if values:
        raise NotApplicable(
            f"protobuf: {path} holds nulls in a list, which a repeated field cannot carry"
        )
    return []


_pb_modules: dict[Path, ModuleType] = {}


def pb_classes(generated: str, relative: str) -> Any:
    """Message classes by full name from protoc's module (each file loaded once)."""
    from google.protobuf import message_factory

    path = Path(generated).parent / relative
    if path not in _pb_modules:
        spec = importlib.util.spec_from_file_location(f"serbench_pb{len(_pb_modules)}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _pb_modules[path] = module
    pool = _pb_modules[path].DESCRIPTOR.pool

    def message_class(full_name: str) -> Any:
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))

    return message_class
