"""`serbench run --cluster`: blocks measured on a local Ray cluster (a head and two nodes,
each its own `ray start`, all on 127.0.0.1) with the fake runner; machine classes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import Server
from typer.testing import CliRunner

from serbench import cli, orchestrate
from serbench.cluster import local, machine
from serbench.runners import RunnerSpec
from serbench.store import CellKey, Store

os.environ.update(local.LOOPBACK_ENV)  # before Ray is imported: the driver keeps 127.0.0.1
pytest.importorskip("ray")
from serbench.cluster import dispatch  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
FAKE = RunnerSpec(
    name="fake",
    language="python",
    directory=FIXTURES,
    command=[sys.executable, str(FIXTURES / "fake_runner.py")],
)
# the fake runner under three names, taking two datasets: two blocks (a dataset, every
# runner of it); log-records gives not-applicable cells
SPECS = {name: replace(FAKE, name=name) for name in ("fake", "fake2", "fake3")}
TAKES = {"FAKE_DATASETS": "android-users,pb-vs-msgpack-test2"}
DATASETS = ["android-users", "pb-vs-msgpack-test2", "log-records"]
# the fake runner, reporting $FAKE_RUNTIME_VERSION as its runtime's version where it is set
RUNTIME_FROM_ENV = """
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("fake_runner", sys.argv[1])
fake = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fake)
emit, version = fake.emit, os.environ.get("FAKE_RUNTIME_VERSION")
if version and sys.argv[2] == "describe":
    fake.emit = lambda e: emit({**e, "runtime": {**e["runtime"], "version": version}})
{"describe": fake.describe}.get(sys.argv[2], fake.serve)()
"""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[local.LocalCluster]:
    home = tmp_path_factory.mktemp("cluster")
    patch = pytest.MonkeyPatch()
    for key, value in TAKES.items():  # the head describes the runners too
        patch.setenv(key, value)
    env = {"SERBENCH_HOME": str(home), **TAKES}
    c = local.LocalCluster(nodes=2, logs=home / "logs", env=env)
    try:
        c.start()
        dispatch.connect(c.address)
        yield c
    finally:
        import ray

        ray.shutdown()
        c.stop()
        patch.undo()


def _config() -> orchestrate.RunConfig:
    config = orchestrate.RunConfig.for_scale("quick")
    config.datasets = list(DATASETS)
    config.serializers = ["good", "noop"]
    config.timing = {**config.profile.with_processes(2).as_dict(), "tiebreak_processes": 0}
    return config


def _keys(store: Store, run_id: int) -> list[CellKey]:
    return [
        CellKey(r["runner"], r["serializer"], r["dataset"], r["operation"], r["process"])
        for r in store.results(run_id)
    ]


def _cluster_run(
    store: Store, config: orchestrate.RunConfig, the_plan: orchestrate.Plan
) -> tuple[int, dispatch.Summary]:
    run_id = store.new_run(orchestrate.config_json(config), {})
    said: list[str] = []
    summary = dispatch.execute(
        config, the_plan, store, run_id, lambda *_: None, set(), "auto", said.append
    )
    return run_id, summary


def test_ray_stays_on_the_loopback(cluster: local.LocalCluster) -> None:
    import ray

    addresses = {n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"]}
    assert addresses == {"127.0.0.1"}
    # no Ray process of this cluster holds a connection to any other address
    pids = _descendants(cluster.pgids())
    conns = subprocess.run(["ss", "-tnpH"], capture_output=True, text=True).stdout
    for line in conns.splitlines():
        if any(f"pid={p}," in line for p in pids):
            local_addr, peer = line.split()[3:5]
            assert "127.0.0.1" in local_addr and "127.0.0.1" in peer, line


def test_blocks_spread_and_every_cell_is_stored_once(
    cluster: local.LocalCluster, tmp_path: Path
) -> None:
    store = Store(tmp_path / "r.sqlite")
    config = _config()
    the_plan = orchestrate.plan(config, SPECS)
    run_id, summary = _cluster_run(store, config, the_plan)
    assert len(summary.nodes) == 2 and not summary.refused and not summary.lost
    assert len({n for placed in summary.placed.values() for n in placed}) == 2
    keys = _keys(store, run_id)
    planned = {c.key(op) for c in the_plan.cells for op in config.operations}
    planned |= {c.key(op) for c, _ in the_plan.not_applicable for op in config.operations}
    assert len(keys) == len(set(keys)) and set(keys) == planned
    assert summary.saved == len(the_plan.cells) * len(config.operations)
    measured = [r for r in store.results(run_id) if r["status"] != "not_applicable"]
    assert measured and all(r["machine"] for r in measured)
    machine.check(store, [run_id], pool=False)  # one machine: one class


def test_a_killed_worker_loses_only_its_block(cluster: local.LocalCluster, tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite")
    config = _config()
    the_plan = orchestrate.plan(config, SPECS)
    before: dict[CellKey, tuple[str, str]] = {}

    def kill_one_mid_block() -> None:
        """kill -9 the first Ray worker measuring a block once it has stored a result."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            workers = _block_workers(cluster.pgids())
            run = store.run()
            if workers and run and store.results(run["id"]):
                os.kill(workers[0], signal.SIGKILL)
                for r in store.results(run["id"]):
                    key = CellKey(
                        r["runner"], r["serializer"], r["dataset"], r["operation"], r["process"]
                    )
                    before[key] = (r["timing"], r["created_at"])
                return
            time.sleep(0.2)

    killer = threading.Thread(target=kill_one_mid_block)
    killer.start()
    run_id, summary = _cluster_run(store, config, the_plan)
    killer.join()
    assert before, "no block was killed"
    assert len(summary.lost) == 1
    (lost,) = summary.lost
    assert len(set(summary.placed[lost])) == 2  # run again on the other node
    keys = _keys(store, run_id)
    planned = {c.key(op) for c in the_plan.cells for op in config.operations}
    assert len(keys) == len(set(keys)) and planned <= set(keys)
    rows = {
        k: (r["timing"], r["created_at"]) for k, r in zip(keys, store.results(run_id), strict=True)
    }
    # what was stored before the kill was not measured again
    assert all(rows[k] == v for k, v in before.items())


def test_resume_after_the_head_died_runs_only_the_rest(
    cluster: local.LocalCluster, tmp_path: Path
) -> None:
    store = Store(tmp_path / "r.sqlite")
    config = _config()
    config.datasets = DATASETS[:1]
    the_plan = orchestrate.plan(config, SPECS)
    # the head died after fake's cells were stored, the rest not
    first = replace(the_plan, cells=[c for c in the_plan.cells if c.runner == "fake"])
    run_id, _ = _cluster_run(store, config, first)
    stored = {r["id"]: (r["timing"], r["created_at"]) for r in store.results(run_id)}
    summary = dispatch.execute(
        config, the_plan, store, run_id, lambda *_: None, store.done_keys(run_id), "auto", print
    )
    assert summary.blocks == 1 and summary.saved == len(the_plan.cells) * 2 - len(stored)
    keys = _keys(store, run_id)
    assert len(keys) == len(set(keys)) == len(the_plan.cells) * 2
    rows = {r["id"]: (r["timing"], r["created_at"]) for r in store.results(run_id)}
    assert all(rows[i] == v for i, v in stored.items())


def test_a_node_of_another_commit_is_refused(cluster: local.LocalCluster, tmp_path: Path) -> None:
    other = tmp_path / "other"
    git = ["git", "-C", str(other), "-c", "user.name=n", "-c", "user.email=n@example.org"]
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "other"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True)
    # the node's git answers for that repository: its checkout is at another commit
    with _extra_node(cluster, "other-commit", {"GIT_DIR": str(other / ".git")}):
        store = Store(tmp_path / "r.sqlite")
        config = _config()
        config.datasets = DATASETS[:1]
        the_plan = orchestrate.plan(config, SPECS)
        run_id, summary = _cluster_run(store, config, the_plan)
    assert len(summary.nodes) == 2
    (diff,) = summary.refused.values()
    assert diff == [f"git commit {commit.stdout.strip()} (the run's: {_head_commit()})"]
    assert len(_keys(store, run_id)) == len(the_plan.cells) * 2


def test_a_node_of_another_runtime_version_is_refused(
    cluster: local.LocalCluster, tmp_path: Path
) -> None:
    # the same runner on every node; on the added one its runtime says it is version 2
    fake = replace(FAKE, command=[sys.executable, "-c", RUNTIME_FROM_ENV, *FAKE.command[1:]])
    with _extra_node(cluster, "other-runtime", {"FAKE_RUNTIME_VERSION": "2"}):
        store = Store(tmp_path / "r.sqlite")
        config = _config()
        config.datasets = DATASETS[:1]
        the_plan = orchestrate.plan(config, {"fake": fake})
        run_id, summary = _cluster_run(store, config, the_plan)
    assert len(summary.nodes) == 2
    (diff,) = summary.refused.values()
    assert diff == [
        "runner fake runtime {'name': 'fake', 'version': '2'}"
        " (the run's: {'name': 'fake', 'version': '1'})"
    ]
    assert len(_keys(store, run_id)) == len(the_plan.cells) * 2


def test_a_cluster_run_into_postgresql_stores_the_cells_of_a_serial_run(
    cluster: local.LocalCluster, request: pytest.FixtureRequest
) -> None:
    pg: Server = request.getfixturevalue("server")  # skips, saying why, without PostgreSQL
    store = Store(pg.database("cluster"))
    config = _config()
    the_plan = orchestrate.plan(config, SPECS)
    serial = store.new_run(orchestrate.config_json(config), {})
    orchestrate.execute(config, the_plan, store, serial, lambda *_: None)
    run_id, summary = _cluster_run(store, config, the_plan)
    assert len(summary.nodes) == 2 and not summary.refused and not summary.lost

    def stored(run: int) -> dict[CellKey, str]:
        keys = _keys(store, run)
        assert len(keys) == len(set(keys)), "a cell stored twice"
        return dict(zip(keys, (r["status"] for r in store.results(run)), strict=True))

    assert stored(run_id) == stored(serial)
    assert summary.saved == len(the_plan.cells) * len(config.operations)


@contextlib.contextmanager
def _extra_node(cluster: local.LocalCluster, name: str, env: dict[str, str]) -> Iterator[None]:
    """A third node, with its own environment, for the length of a test."""
    cluster.add_node(name, env)
    try:
        yield
    finally:
        cluster.remove_node(name)


def test_report_refuses_to_pool_two_machine_classes(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    store = Store(db)
    run_id = store.new_run({}, {})
    for k, cores in enumerate((2, 64)):
        machine.register(store, {"cpu_model": "EPYC", "cpu_count": cores, "kernel": "6.1"})
        key = CellKey("fake", "good", "android-users", "encode", k)
        store.save_result(run_id, key, {"status": "error", "error": {"code": "crashed"}})
    refused = CliRunner().invoke(cli.app, ["report", str(run_id), "--db", str(db)])
    assert refused.exit_code != 0
    assert "2 machine classes" in refused.output and "--pool-machines" in refused.output
    assert "EPYC, 2 cores" in refused.output and "EPYC, 64 cores" in refused.output
    pooled = CliRunner().invoke(
        cli.app, ["report", str(run_id), "--db", str(db), "--pool-machines", "-f", "json"]
    )
    assert "machine classes" not in pooled.output


def _head_commit() -> str:
    from serbench import environment

    return str(environment.collect()["git_commit"])


def _descendants(roots: set[int]) -> set[int]:
    """The processes the cluster's `ray start`s started, however far down."""
    parent = _parents()
    found = set(roots)
    grew = True
    while grew:
        more = {pid for pid, ppid in parent.items() if ppid in found} - found
        found |= more
        grew = bool(more)
    return found


def _parents() -> dict[int, int]:
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def _block_workers(pgids: set[int]) -> list[int]:
    """Ray workers of this cluster running a block (Ray titles a busy worker ray::TASK)."""
    found = []
    for pid in sorted(_descendants(pgids)):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if title.startswith(b"ray::run_block"):
            found.append(pid)
    return found


def test_machine_classes_come_from_the_environment() -> None:
    a = {"cpu_model": "X", "cpu_count": 2, "memory_kib": 16 * (1 << 20), "hostname": "a"}
    b = {**a, "hostname": "b", "memory_kib": 16 * (1 << 20) - 300}
    assert machine.class_id(machine.identity(a)) == machine.class_id(machine.identity(b))
    c = {**a, "cpu_flags": "avx2"}
    assert machine.class_id(machine.identity(a)) != machine.class_id(machine.identity(c))
    assert json.dumps(machine.identity(a))


def test_counted_blocks_are_the_processes_of_a_run_on_one_machine() -> None:
    from serbench.schedule import Cell

    cells = [
        Cell(r, f"s{k}", ds, p)
        for ds in ("log-records", "android-users")
        for r, n in (("rust", 3), ("go", 2))
        for k in range(n)
        for p in (0, 1)
    ]
    # time: a dataset, every runner of it, as a run on one machine measures it
    timed = dispatch.blocks(cells)
    assert [(b.name, len(b.cells)) for b in timed] == [
        ("go, rust x log-records", 10),
        ("go, rust x android-users", 10),
    ]
    # counts depend on what the process counted before: each block is one process of a
    # runner, its cells in the order `serbench run --measure instructions` takes them
    counted = dispatch.blocks(cells, "instructions")
    assert [b.name for b in counted] == [
        "rust process 0",
        "rust process 1",
        "go process 0",
        "go process 1",
    ]
    assert [(c.serializer, c.dataset) for c in counted[0].cells] == [
        (f"s{k}", ds) for ds in ("android-users", "log-records") for k in range(3)
    ]
    assert all({c.process for c in b.cells} == {int(b.name[-1])} for b in counted)


def test_the_nodes_get_the_database_without_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from serbench.cluster import node

    url = "postgresql://team:s3cret@db.example.org:5433/serbench"
    sent = node.without_password(url)
    assert sent == "postgresql://team@db.example.org:5433/serbench"
    assert node.without_password("/data/r.sqlite") == "/data/r.sqlite"
    opened: list[str] = []
    monkeypatch.setattr(node, "Store", opened.append)
    monkeypatch.setenv("SERBENCH_DB", url)
    node.open_store(sent)  # the node's own URL of that database, password included
    monkeypatch.setenv("SERBENCH_DB", "postgresql://team:x@other.example.org/serbench")
    node.open_store(sent)  # another database: the URL as sent, libpq finds the password
    assert opened == [url, sent]


def test_a_block_gets_its_share_of_the_budget() -> None:
    from collections import deque

    from serbench.cluster.node import Block
    from serbench.schedule import Cell

    def block(cells: int) -> Block:
        return Block("fake", "android-users", [Cell("fake", f"s{k}", "x", 0) for k in range(cells)])

    budget = orchestrate.Budget(100.0)
    queue = deque(block(1) for _ in range(8))
    # ten cells' worth of work left, two nodes side by side: two cells get 2 * 100 * 2 / 10
    assert 39 < dispatch._budget_share(budget, block(2), queue, 2) <= 40
    assert dispatch._budget_share(budget, block(20), deque(), 2) <= 100  # never past the end
    spent = orchestrate.Budget(1.0, started=time.monotonic() - 5)
    assert dispatch._budget_share(spent, block(1), queue, 2) > 0  # 0 would mean no budget
