"""Every kind of schema of one dataset, written into one folder."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from serbench.userdata.schemas import avro, capnp, fbs, proto, thrift
from serbench.userdata.schemas.model import Dataset, Unavailable

# kind (the protocol's key and the file suffix) -> the format name used in reasons
KINDS = {
    "proto": "protobuf",
    "avsc": "avro",
    "fbs": "flatbuffers",
    "capnp": "capnproto",
    "thrift": "thrift",
}


@dataclass(frozen=True)
class Schema:
    """One generated schema: its text and the type a dataset encodes ("" for Avro)."""

    kind: str
    text: str
    root: str


def generate(ds: Dataset) -> dict[str, Schema | Unavailable]:
    """Each kind's schema, or why the types have no direct mapping in it."""
    makers = {
        "proto": lambda: proto.text(ds),
        "avsc": lambda: (avro.text(ds), ""),
        "fbs": lambda: fbs.text(ds),
        "capnp": lambda: capnp.text(ds),
        "thrift": lambda: thrift.text(ds),
    }
    out: dict[str, Schema | Unavailable] = {}
    for kind, make in makers.items():
        try:
            text, root = make()
        except Unavailable as exc:
            out[kind] = exc
        else:
            out[kind] = Schema(kind, text, root)
    return out


def write(ds: Dataset, folder: Path, stem: str) -> dict[str, Schema | Unavailable]:
    """Write STEM.<kind> into ``folder`` for every kind that maps; unchanged files are
    left alone so that builds keyed on modification times stay incremental."""
    folder.mkdir(parents=True, exist_ok=True)
    out = generate(ds)
    for kind, schema in out.items():
        if isinstance(schema, Schema):
            path = folder / f"{stem}.{kind}"
            if not path.exists() or path.read_text() != schema.text:
                # whole or not at all: runners may read the folder while serbench writes it
                tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
                tmp.write_text(schema.text)
                tmp.replace(path)
    return out
