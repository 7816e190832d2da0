"""The SQLite store: files made by earlier versions keep working; bad targets fail clearly."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from serbench.store import CellKey, Store, StoreError, decode_json
from serbench.store_schema import columns, metadata

# The tables as serbench created them before the schema was written with SQLAlchemy.
EARLIER_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT,
    status TEXT NOT NULL, config TEXT NOT NULL, environment TEXT NOT NULL);
CREATE TABLE serializers (run_id INTEGER NOT NULL REFERENCES runs(id), runner TEXT NOT NULL,
    name TEXT NOT NULL, format TEXT, library TEXT, version TEXT, labels TEXT,
    footprint_bytes INTEGER, datasets TEXT, runtime TEXT, PRIMARY KEY (run_id, runner, name));
CREATE TABLE transfers (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    sender TEXT NOT NULL, receiver TEXT NOT NULL, dataset TEXT NOT NULL, status TEXT NOT NULL,
    error TEXT, result TEXT, created_at TEXT NOT NULL);
CREATE TABLE results (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    runner TEXT NOT NULL, serializer TEXT NOT NULL, dataset TEXT NOT NULL,
    operation TEXT NOT NULL, process INTEGER NOT NULL, status TEXT NOT NULL, error_code TEXT,
    error_message TEXT, check_ok INTEGER, check_detail TEXT, messages INTEGER, sizes TEXT,
    timing TEXT, created_at TEXT NOT NULL,
    UNIQUE (run_id, runner, serializer, dataset, operation, process));
INSERT INTO runs VALUES (7, '2026-01-01T00:00:00+00:00', NULL, 'running', '{"scale": "quick"}',
    '{}');
INSERT INTO results (run_id, runner, serializer, dataset, operation, process, status, sizes,
    timing, created_at) VALUES (7, 'python', 'msgpack', 'android-users', 'encode', 0, 'ok',
    '{"encoded": 383}', 'null', '2026-01-01T00:00:01+00:00');
"""

KEY = CellKey("python", "msgpack", "android-users", "encode", 0)


@pytest.fixture
def earlier(tmp_path: Path) -> Path:
    db = tmp_path / "earlier.sqlite"
    with sqlite3.connect(db) as conn:
        conn.executescript(EARLIER_SCHEMA)
    conn.close()
    return db


def test_a_file_from_an_earlier_version_reads_resumes_and_grows(earlier: Path) -> None:
    store = Store(earlier)
    with store.engine.connect() as conn:
        assert columns(conn) == {
            t.name: [c.name for c in t.columns] for t in metadata.tables.values()
        }
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    run = store.run()
    assert run is not None and run["id"] == 7 and run["status"] == "running"
    assert decode_json(store.results(7), "sizes")[0]["sizes"] == {"encoded": 383}
    assert store.done_keys(7) == {KEY}
    # a cell stored again replaces its row; ids go on from the file's
    store.save_result(7, KEY, {"status": "ok", "sizes": {"encoded": 1}, "check": {"ok": True}})
    (row,) = store.results(7)
    assert row["sizes"] == '{"encoded": 1}' and row["check_ok"] == 1
    assert store.new_run({}, {}) == 8
    store.finish_run(7)
    assert [(r["id"], r["status"]) for r in store.runs()] == [(7, "finished"), (8, "running")]


def test_a_foreign_file_or_url_is_a_clear_error(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT)")
    conn.close()
    with pytest.raises(
        StoreError, match=r"other\.sqlite.*table runs lacks column\(s\) finished_at"
    ):
        Store(other)
    with pytest.raises(StoreError, match="unsupported database URL scheme 'mysql'"):
        Store("mysql://me@host/db")
    bad = subprocess.run(
        [sys.executable, "-m", "serbench", "runs", "--db", "mysql://me@host/db"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "postgresql://user@host/db" in bad.stderr
