"""Every schema of a dataset, generated from its types: .proto, .avsc, .fbs, .capnp and
.thrift, one module per schema language (generate.py runs them all). types.json is the only
hand-written definition of a dataset: the built-ins' schemas are written under the state
folder before the runners build (builtin.py); a user dataset's, as protocol section 7
maps them, into its registry folder (write_schemas), each kind a file or
``{"unavailable": "<format>: <path> <reason>"}`` where the mapping is not direct."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serbench.userdata.schemas import compile
from serbench.userdata.schemas.generate import KINDS, Schema, write
from serbench.userdata.schemas.model import Dataset, wrap
from serbench.userdata.schemas.names import identifier
from serbench.userdata.types import Types

# Bumped when the generated schemas change, so `run --data` registers a file again.
SCHEMAS_VERSION = 3

__all__ = ["SCHEMAS_VERSION", "identifier", "write_schemas"]

_COMPILERS = {"proto": "protoc", "capnp": "capnp", "fbs": "flatc", "thrift": "thrift"}


def write_schemas(types: Types, folder: Path, stem: str, package: str) -> dict[str, Any]:
    """Write STEM.proto (+ STEM.pb), .avsc, .fbs, .capnp and .thrift into ``folder``; the
    protocol's ``schemas`` object with paths relative to ``folder`` (made absolute by the
    registry)."""
    ds = Dataset(package=package, messages=[types.message], wrapper=wrap(types.message))
    out: dict[str, Any] = {}
    for kind, schema in write(ds, folder, stem).items():
        fmt = KINDS[kind]
        if not isinstance(schema, Schema):
            out[kind] = {"unavailable": f"{fmt}: {schema}"}
            continue
        path = folder / f"{stem}.{kind}"
        if kind == "proto":
            problem = compile.proto(path, folder / f"{stem}.pb")
        else:
            check = compile.CHECKS.get(kind)
            problem = check(path) if check else None
        if problem:
            path.unlink()
            out[kind] = {"unavailable": f"{fmt}: {_COMPILERS[kind]} rejects the schema: {problem}"}
        elif kind == "proto":
            out[kind] = {"path": path.name, "descriptor_set": f"{stem}.pb", "message": schema.root}
        elif kind == "capnp":
            out[kind] = {"path": path.name, "struct": schema.root}
        elif kind in ("fbs", "thrift"):
            out[kind] = {"path": path.name, "root": schema.root}
        else:
            out[kind] = {"path": path.name}
    return out
