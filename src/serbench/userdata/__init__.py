"""User datasets: any JSON, JSON Lines or CSV file registered for every runner.

- reader: the files, with positions for every error (streamed where the format allows);
- infer / types: the types language of datasets/README.md plus protocol section 7;
- canonical: the canonical file, written item by item with its sha256;
- schemas: .proto (+ FileDescriptorSet), .avsc, .fbs, .capnp and .thrift from the types,
  for user and built-in datasets alike (section 7's mapping);
- register / registry: the folder under ``state_dir()/user/NAME``, written atomically.
"""

from __future__ import annotations

from serbench.userdata.errors import UserDataError
from serbench.userdata.register import add, file_sha256
from serbench.userdata.registry import (
    Entry,
    UnknownUserDataset,
    get,
    is_registered,
    names,
    remove,
)

__all__ = [
    "Entry",
    "UnknownUserDataset",
    "UserDataError",
    "add",
    "file_sha256",
    "get",
    "is_registered",
    "names",
    "remove",
]
