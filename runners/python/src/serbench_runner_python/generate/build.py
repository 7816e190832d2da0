"""Writes one module per dataset under the build folder, regenerating only what changed."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

from serbench_runner_python.generate.handwritten import SEED_STRING_WIDTH, HandwrittenEmitter
from serbench_runner_python.generate.jobs import Job
from serbench_runner_python.generate.protobuf import ProtobufEmitter, find_root
from serbench_runner_python.generate.structs import StructEmitter
from serbench_runner_python.typelang import Types, identifier, parse_types, sha256

_HERE = Path(__file__).parent
_HEADER = '''"""Typed model of the {kind} dataset {name!r}: generated from {types} by
serbench_runner_python.generate at build time; never edited, never committed."""
# ruff: noqa

from __future__ import annotations

import datetime as _dt
import enum as _enum
from typing import Any as _Any

import msgspec as _msgspec

from serbench_runner_python.model import at_ms as _at, ms_of as _ms, no_nulls as _no_nulls
from serbench_runner_python.model import pb_classes as _pb_classes

DATASET = {name!r}
KIND = {kind!r}
INPUTS = {inputs!r}
TYPES_SHA256 = {sha!r}
MESSAGE = {message!r}
TYPES = {types_doc!r}
AVSC = {avsc!r}
'''


def _inputs(job: Job) -> str:
    """A digest of everything the module depends on, the generator's own code included."""
    h = hashlib.sha256(repr((job.kind, job.name, job.message, job.proto_root)).encode())
    for path in [*sorted(_HERE.glob("*.py")), job.types, job.proto, job.avsc]:
        h.update(path.read_bytes() if path is not None else b"-")
    return h.hexdigest()


def _protoc(proto: Path, out: Path) -> Path:
    """The proto's Python module, written by grpcio-tools' protoc (the pinned one)."""
    from grpc_tools import protoc

    out.mkdir(parents=True, exist_ok=True)
    args = ["protoc", f"-I{proto.parent}", f"--python_out={out}", proto.name]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {proto}")
    return out / f"{proto.stem}_pb2.py"


_loaded: dict[Path, Any] = {}


def _descriptor(module_path: Path) -> Any:
    """The compiled file descriptor (each file loaded once: the default pool is shared)."""
    if module_path not in _loaded:
        spec = importlib.util.spec_from_file_location(f"_gen{len(_loaded)}", module_path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _loaded[module_path] = module.DESCRIPTOR
    return _loaded[module_path]


def _pb_folder(job: Job) -> str:
    """One folder per .proto (the S2 datasets share theirs: a file loads once)."""
    assert job.proto is not None
    return f"{job.kind}_{identifier(job.proto.stem)}"


def _source(job: Job, out: Path, inputs: str) -> str:
    doc = json.loads(job.types.read_text())
    types = parse_types(doc, job.message)
    avsc = json.loads(job.avsc.read_text()) if job.avsc is not None else None
    parts = [
        _HEADER.format(
            kind=job.kind,
            name=job.name,
            types=job.types,
            inputs=inputs,
            sha=sha256(job.types),
            message=job.message,
            types_doc=doc,
            avsc=avsc,
        ),
        StructEmitter().root(types.message),
        HandwrittenEmitter(_string_code(job)).root(types.message),
    ]
    parts.append(_protobuf(job, types, out))
    return "\n\n".join(parts)


def _string_code(job: Job) -> str:
    """A string length's width in the handwritten layout (the S1 seed's is two bytes)."""
    return SEED_STRING_WIDTH.get(job.name, "I") if job.kind == "builtin" else "I"


def _protobuf(job: Job, types: Types, out: Path) -> str:
    """protoc's classes and the conversions; PB_ROOT None and PB_WHY when there are none
    (one dataset's schema that does not compile must not fail the others' build)."""
    if job.proto is None:
        return f"PB_ROOT = None\nPB_WHY = {f'protobuf: {job.name!r} has no proto schema'!r}\n"
    try:
        pb2 = _protoc(job.proto, out / "pb" / _pb_folder(job))
        root = find_root(_descriptor(pb2), types.message, job.proto_root)
        code = ProtobufEmitter().root(types.message, root)
    except (RuntimeError, KeyError, ValueError, TypeError) as exc:
        why = f"protobuf: no generated classes for {job.proto.name}: {exc}"
        return f"PB_ROOT = None\nPB_WHY = {why!r}\n"
    rel = pb2.relative_to(out).as_posix()
    return f"_pb_class = _pb_classes(__file__, {rel!r})\n\n\n{code}"


def build(jobs: list[Job], out: Path) -> dict[str, list[str]]:
    """Generate what changed; drop what is gone; write the index. Returns
    {"generated": [...], "unchanged": [...]} module names."""
    out.mkdir(parents=True, exist_ok=True)
    report: dict[str, list[str]] = {"generated": [], "unchanged": []}
    for job in jobs:
        target = out / f"{job.module}.py"
        inputs = _inputs(job)
        if target.exists() and f"INPUTS = {inputs!r}" in target.read_text():
            report["unchanged"].append(job.module)
            continue
        source = _source(job, out, inputs)
        compile(source, str(target), "exec")  # a generator bug fails the build, not a cell
        tmp = target.with_suffix(".tmp")
        tmp.write_text(source)
        tmp.replace(target)
        report["generated"].append(job.module)
    modules = {job.module for job in jobs}
    for stale in out.glob("*.py"):
        if stale.stem not in modules:
            stale.unlink()
    folders = {_pb_folder(job) for job in jobs if job.proto is not None}
    for stale in out.glob("pb/*"):
        if stale.name not in folders:
            shutil.rmtree(stale)
    index = {
        kind: {job.name: job.module for job in jobs if job.kind == kind}
        for kind in ("builtin", "user")
    }
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    return report
