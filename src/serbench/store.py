"""The results database (SQLite): one row per finished cell operation, committed at once."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL,
    config TEXT NOT NULL,
    environment TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS serializers (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    runner TEXT NOT NULL,
    name TEXT NOT NULL,
    format TEXT,
    library TEXT,
    version TEXT,
    labels TEXT,
    footprint_bytes INTEGER,
    datasets TEXT,
    runtime TEXT,
    PRIMARY KEY (run_id, runner, name)
);
CREATE TABLE IF NOT EXISTS transfers (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    sender TEXT NOT NULL,
    receiver TEXT NOT NULL,
    dataset TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    result TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    runner TEXT NOT NULL,
    serializer TEXT NOT NULL,
    dataset TEXT NOT NULL,
    operation TEXT NOT NULL,
    process INTEGER NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    error_message TEXT,
    check_ok INTEGER,
    check_detail TEXT,
    messages INTEGER,
    sizes TEXT,
    timing TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (run_id, runner, serializer, dataset, operation, process)
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class CellKey:
    runner: str
    serializer: str
    dataset: str
    operation: str
    process: int


class Store:
    """A thin layer over SQLite in WAL mode; every write is its own transaction."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def new_run(self, config: dict[str, Any], environment: dict[str, Any]) -> int:
        cur = self.db.execute(
            "INSERT INTO runs (started_at, status, config, environment)"
            " VALUES (?, 'running', ?, ?)",
            (_now(), json.dumps(config), json.dumps(environment)),
        )
        return int(cur.lastrowid)

    def finish_run(self, run_id: int, status: str = "finished") -> None:
        self.db.execute(
            "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", (status, _now(), run_id)
        )

    def run(self, run_id: int | None = None) -> sqlite3.Row | None:
        if run_id is None:
            return self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        return self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()

    def runs(self) -> list[sqlite3.Row]:
        return self.db.execute("SELECT * FROM runs ORDER BY id").fetchall()

    def save_serializers(self, run_id: int, runner: str, describe: dict[str, Any]) -> None:
        rows = [
            (
                run_id,
                runner,
                s["name"],
                s.get("format"),
                s.get("library"),
                s.get("version"),
                json.dumps(s.get("labels", [])),
                s.get("footprint_bytes"),
                json.dumps(s.get("datasets", {})),
                json.dumps(describe.get("runtime", {})),
            )
            for s in describe.get("serializers", [])
        ]
        self.db.execute("BEGIN")
        self.db.executemany(
            "INSERT OR REPLACE INTO serializers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
        )
        self.db.execute("COMMIT")

    def serializers(self, run_id: int) -> list[sqlite3.Row]:
        return self.db.execute(
            "SELECT * FROM serializers WHERE run_id = ? ORDER BY runner, name", (run_id,)
        ).fetchall()

    def save_result(self, run_id: int, key: CellKey, result: dict[str, Any]) -> None:
        check = result.get("check") or {}
        error = result.get("error") or {}
        self.db.execute(
            """INSERT OR REPLACE INTO results (run_id, runner, serializer, dataset, operation,
               process, status, error_code, error_message, check_ok, check_detail, messages,
               sizes, timing, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                run_id,
                key.runner,
                key.serializer,
                key.dataset,
                key.operation,
                key.process,
                result.get("status", "error"),
                error.get("code"),
                error.get("message"),
                None if "ok" not in check else int(bool(check["ok"])),
                check.get("detail"),
                result.get("messages"),
                json.dumps(result.get("sizes")),
                json.dumps(result.get("timing")),
                _now(),
            ),
        )

    def save_transfer(
        self,
        run_id: int,
        sender: str,
        receiver: str,
        dataset: str,
        result: dict[str, Any] | None,
        error: str | None = None,
    ) -> None:
        self.db.execute(
            "INSERT INTO transfers (run_id, sender, receiver, dataset, status, error, result,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                sender,
                receiver,
                dataset,
                "error" if error else "ok",
                error,
                json.dumps(result) if result is not None else None,
                _now(),
            ),
        )

    def transfers(self, dataset: str) -> list[sqlite3.Row]:
        """The latest transfer of every sender/receiver pair on this dataset."""
        return self.db.execute(
            "SELECT * FROM transfers t WHERE dataset = ? AND id = (SELECT MAX(id) FROM transfers"
            " WHERE sender = t.sender AND receiver = t.receiver AND dataset = t.dataset)"
            " ORDER BY id",
            (dataset,),
        ).fetchall()

    def done_keys(self, run_id: int) -> set[CellKey]:
        rows = self.db.execute(
            "SELECT runner, serializer, dataset, operation, process FROM results WHERE run_id = ?",
            (run_id,),
        )
        return {CellKey(*row) for row in rows}

    def results(self, run_id: int) -> list[sqlite3.Row]:
        return self.db.execute(
            "SELECT * FROM results WHERE run_id = ?"
            " ORDER BY dataset, runner, serializer, operation,"
            " process",
            (run_id,),
        ).fetchall()


def decode_json(rows: Iterable[sqlite3.Row], *fields: str) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        item = dict(row)
        for f in fields:
            if item.get(f) is not None:
                item[f] = json.loads(item[f])
        out.append(item)
    return out
