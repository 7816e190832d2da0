"""`--db postgresql://...`: runs stored in a real PostgreSQL server, as in SQLite.

The fixture starts a throwaway server (its own cluster in a temporary directory, on a free
port of 127.0.0.1) and stops it at the end. PostgreSQL will not run as root, so as root the
cluster belongs to the `postgres` user that Debian's package creates.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import Server, assert_resumed_run_complete
from sqlalchemy import func, insert, select

from serbench import orchestrate
from serbench.runners import PYTHON
from serbench.store import CellKey, Store, StoreError
from serbench.store_schema import columns, metadata, results, runs

SERBENCH = [sys.executable, "-m", "serbench"]


def test_both_backends_have_the_same_tables_and_columns(server: Server, tmp_path: Path) -> None:
    lite, pg = Store(tmp_path / "s.sqlite"), Store(server.database("schema"))
    with lite.engine.connect() as a, pg.engine.connect() as b:
        assert columns(a) == columns(b)
        assert columns(b) == {t.name: [c.name for c in t.columns] for t in metadata.sorted_tables}


def _results(store: Store) -> list[tuple]:
    with store.engine.connect() as conn:
        rows = list(conn.execute(select(results).order_by(results.c.id)).mappings())
    return [(r["runner"], r["serializer"], r["dataset"], r["operation"], r["process"],
             r["status"], r["timing"]) for r in rows]  # fmt: skip


def _copy(source: Store, target: Store) -> None:
    """Every row of every table, unchanged: possible only because the schemas agree."""
    with source.engine.connect() as src, target.engine.begin() as dst:
        for table in metadata.sorted_tables:
            rows = [dict(r) for r in src.execute(select(table)).mappings()]
            if rows:
                dst.execute(insert(table), rows)


def test_run_killed_resumed_listed_and_reported_like_sqlite(
    server: Server, state: Path, tmp_path: Path
) -> None:
    url = server.database("cli")
    store = Store(url)  # its tables exist before the run starts: the polling below reads them
    config = orchestrate.RunConfig.for_scale("quick")
    config.runners, config.datasets = ["python"], ["android-users"]
    proc = subprocess.Popen(
        [*SERBENCH, "run", "--runner", "python", "--dataset", "android-users", "--quick",
         "--db", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if len(_results(store)) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it stored two cells"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _results(store)
    assert before, "the run stored no cell before it was killed"
    assert store.run(1)["status"] == "running", "the run finished before it was killed"

    subprocess.run([*SERBENCH, "run", "--resume", "--db", url], check=True, capture_output=True)
    after = _results(store)
    keys = [r[:5] for r in after]
    assert len(keys) == len(set(keys)), "a resumed cell was stored twice"
    assert set(before) <= set(after), "a result stored before the kill was lost or changed"
    plan = orchestrate.plan(config, {"python": PYTHON})
    assert_resumed_run_complete(store.done_keys(1), plan, config.operations)
    assert store.run(1)["status"] == "finished"

    listed = subprocess.run(
        [*SERBENCH, "runs", "--db", url], check=True, capture_output=True, text=True
    ).stdout
    assert "finished" in listed and "quick" in listed

    lite = Store(tmp_path / "copy.sqlite")
    _copy(store, lite)
    reports = [
        subprocess.run(
            [*SERBENCH, "report", "1", "--format", "json", "--db", db],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for db in (url, str(lite.path))
    ]
    assert reports[0] == reports[1]
    rows = json.loads(reports[0])["datasets"]["android-users"]
    checks = {r["serializer"]: r["check"] for r in rows}
    assert checks["msgpack"] == checks["protobuf"] == "ok"


def _open_at_once(url: str, openers: int) -> list[StoreError]:
    """Errors of `openers` threads that open the same database at the same instant."""
    barrier, errors = threading.Barrier(openers), []

    def open_it() -> None:
        barrier.wait()
        try:
            Store(url).close()
        except StoreError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(openers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_machines_opening_a_fresh_database_at_once_create_its_tables_once(
    server: Server,
) -> None:
    for attempt in range(3):
        errors = _open_at_once(server.database(f"fresh{attempt}"), 8)
        assert not errors, errors[0]


CELLS = 150


def _write_a_run(url: str, machine: str, start_at: float) -> None:
    """One machine's run: opened at the same instant as the other's, then many small writes."""
    time.sleep(max(0.0, start_at - time.time()))
    store = Store(url)
    run_id = store.new_run({"machine": machine}, {"hostname": machine})
    describe = {"runtime": {}, "serializers": [{"name": machine, "labels": []}]}
    store.save_serializers(run_id, "fake", describe)
    for i in range(CELLS):
        key = CellKey("fake", machine, "android-users", "encode", i)
        store.save_result(run_id, key, {"status": "ok", "messages": i})
    store.save_transfer(run_id, machine, machine, "one-mb-dict", {"machine": machine})
    store.finish_run(run_id)
    print(run_id)


def test_two_machines_write_their_runs_at_once(server: Server) -> None:
    url = server.database("shared")  # empty: both also race to create the tables
    start_at = time.time() + 3
    writers = [
        subprocess.Popen(
            [sys.executable, __file__, url, machine, str(start_at)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for machine in ("a", "b")
    ]
    outs = [w.communicate(timeout=120) for w in writers]
    for w, (_, stderr) in zip(writers, outs, strict=True):
        assert w.returncode == 0, stderr
    ids = sorted(int(out) for out, _ in outs)
    assert ids == [1, 2]
    store = Store(url)
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(runs)).scalar() == 2
    for run_id in ids:
        run = store.run(run_id)
        machine = json.loads(run["config"])["machine"]
        assert run["status"] == "finished"
        got = store.results(run_id)
        assert len(got) == CELLS and {r["serializer"] for r in got} == {machine}
        assert [s["name"] for s in store.serializers(run_id)] == [machine]
    assert {t["sender"] for t in store.transfers("one-mb-dict")} == {"a", "b"}


if __name__ == "__main__":  # one writer of test_two_machines_write_their_runs_at_once
    _write_a_run(sys.argv[1], sys.argv[2], float(sys.argv[3]))
