"""Shared fixtures: runner discovery, canonical data, a throwaway state directory."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from serbench import datasets, runners
from serbench.client import prepare_request
from serbench.session import RunnerSession


def available_runners() -> list[str]:
    return list(runners.discover())


def runner_or_skip(name: str) -> runners.RunnerSpec:
    """The runner's spec; a runner that is not built fails under SERBENCH_REQUIRE_RUNNERS=1."""
    spec = runners.discover()[name]
    try:
        runners.describe(spec)
    except runners.RunnerUnavailable as exc:
        if os.environ.get("SERBENCH_REQUIRE_RUNNERS") == "1":
            pytest.fail(f"runner {name} unavailable: {exc}")
        pytest.skip(f"runner {name} unavailable: {exc}")
    return spec


def data_path(name: str, scale: str = "quick") -> str:
    return str(datasets.get(name).build(scale).path())  # type: ignore[arg-type]


def dataset(name: str, scale: str = "quick", **extra: Any) -> dict[str, Any]:
    """The protocol's dataset object for a built-in dataset."""
    return {"name": name, "kind": "builtin", "data": data_path(name, scale), **extra}


def prepare(
    cell: str,
    serializer: str,
    data: dict[str, Any],
    operations: tuple[str, ...] = ("encode", "decode"),
    **extra: Any,
) -> dict[str, Any]:
    """A `prepare` request; ``extra`` overrides or adds fields (protocol tests send bad ones)."""
    return {**prepare_request(cell, serializer, data, list(operations)), **extra}  # type: ignore[arg-type]


def sample(cell: str, operation: str, iterations: int = 2, samples: int = 3) -> dict[str, Any]:
    return {
        "cmd": "sample",
        "cell": cell,
        "operation": operation,
        "iterations": iterations,
        "samples": samples,
    }


@contextmanager
def serving(spec: runners.RunnerSpec, timeout: float = 300) -> Iterator[RunnerSession]:
    """A `serve` process whose every reply is validated against the protocol schema."""
    session = RunnerSession(spec, timeout)
    try:
        yield session
    finally:
        session.close()


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private SERBENCH_HOME with the shared data cache linked in."""
    from serbench.paths import data_dir

    home = tmp_path / "home"
    home.mkdir()
    (home / "data").symlink_to(data_dir().resolve(), target_is_directory=True)
    data_dir().mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("SERBENCH_HOME", str(home))
    monkeypatch.setenv("SERBENCH_DB", str(home / "results.sqlite"))
    return home


def assert_resumed_run_complete(done: set[Any], plan: Any, ops: list[str]) -> None:
    """A resumed run's stored keys: every planned cell operation, and besides only tie-break
    cells (as process `processes`): a tiered JIT's whole block of a runner and dataset,
    elsewhere the unsettled cells alone."""
    expected = {c.key(op) for c in plan.cells for op in ops}
    expected |= {c.key(op) for c, _ in plan.not_applicable for op in ops}
    assert expected <= done
    processes = 1 + max(c.process for c in plan.cells)
    extra = done - expected
    assert {k.process for k in extra} <= {processes}
    redone = {(k.runner, k.serializer, k.dataset) for k in extra}
    for runner, dataset in {(r, d) for r, _, d in redone if plan.specs[r].jit == "tiered"}:
        block = {
            (c.runner, c.serializer, c.dataset)
            for c in plan.cells
            if c.process == 0 and (c.runner, c.dataset) == (runner, dataset)
        }
        assert block <= redone, f"{runner} {dataset}: a tiered JIT's tie-break is its block"


# --- a throwaway PostgreSQL server (the store's and the cluster's tests) ---------------------
# started from the machine's own PostgreSQL programs on a free loopback port, one per module;
# without them a test skips, saying why (fails under SERBENCH_REQUIRE_RUNNERS=1, as in CI)


def _unavailable(reason: str) -> None:
    if os.environ.get("SERBENCH_REQUIRE_RUNNERS") == "1":
        pytest.fail(f"PostgreSQL unavailable: {reason}")
    pytest.skip(f"PostgreSQL unavailable: {reason}")


def _bindir() -> Path | None:
    """The server's programs: pg_config's answer, else the newest /usr/lib/postgresql/N."""
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        found = Path(out.stdout.strip())
        if out.returncode == 0 and (found / "initdb").exists():
            return found
    versions = Path("/usr/lib/postgresql").glob("*/bin/initdb")
    newest = max(
        versions, key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0, default=None
    )
    return newest.parent if newest else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    port: int

    def database(self, name: str) -> str:
        """A new, empty database on this server: its URL."""
        import psycopg

        admin = f"host=127.0.0.1 port={self.port} user=serbench dbname=postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://serbench@127.0.0.1:{self.port}/{name}"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    bindir = _bindir()
    if bindir is None:
        _unavailable("no initdb (install the `postgresql` package: scripts/setup.sh does)")
    base = Path(tempfile.mkdtemp(prefix="serbench-pg-"))
    as_owner: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(base)
            _unavailable("running as root and there is no `postgres` user to own the server")
        os.chown(base, owner.pw_uid, owner.pw_gid)
        as_owner = ["runuser", "-u", "postgres", "--"]
    data, port = base / "data", _free_port()

    def pg(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*as_owner, *args], cwd=base, capture_output=True, text=True, timeout=120
        )

    init = pg(
        str(bindir / "initdb"), "-D", str(data), "-U", "serbench", "--auth=trust",
        "--encoding=UTF8", "--no-locale", "--no-sync",
    )  # fmt: skip
    assert init.returncode == 0, f"initdb failed: {init.stderr}"
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
    start = pg(
        str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "server.log"), "-w",
        "-t", "60", "-o", options, "start",
    )  # fmt: skip
    try:
        log = (base / "server.log").read_text() if (base / "server.log").exists() else ""
        assert start.returncode == 0, f"pg_ctl start failed: {start.stderr}\n{log}"
        yield Server(port)
    finally:
        pg(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)
