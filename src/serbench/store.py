"""The results database: one row per finished cell operation, committed at once.

A file path opens SQLite (in WAL mode, one file per machine); a `postgresql://` URL opens a
PostgreSQL database that several machines write their runs to at once: the server hands
out the ids and every write is its own transaction. Both use the tables of store_schema.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    RowMapping,
    Table,
    create_engine,
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from serbench.store_schema import (
    CELL,
    UNTRUSTED_KEY,
    SchemaMismatch,
    create,
    machines,
    results,
    runs,
    serializers,
    untrusted_outcomes,
)
from serbench.store_schema import transfers as transfers_table

# URL schemes that mean PostgreSQL; SQLAlchemy's own default driver for them is psycopg2.
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")


class StoreError(RuntimeError):
    """The database cannot be opened or is not a serbench results database."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class CellKey:
    runner: str
    serializer: str
    dataset: str
    operation: str
    process: int


def is_url(target: str | Path) -> bool:
    return isinstance(target, str) and "://" in target


def _postgres_url(target: str) -> URL:
    try:
        url = make_url(target)
    except ArgumentError as exc:
        raise StoreError(f"bad database URL {target!r}: {exc}") from exc
    if url.drivername not in POSTGRES_SCHEMES:
        raise StoreError(
            f"unsupported database URL scheme {url.drivername!r}: give a file path (SQLite)"
            " or postgresql://user@host/db"
        )
    return url


def _sqlite_engine(path: Path) -> Engine:
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(URL.create("sqlite+pysqlite", database=str(path)))

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        # The driver's own implicit transactions off: SQLAlchemy's BEGIN below is the only
        # one, so a write commits exactly when its `with engine.begin()` block ends.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


class Store:
    """Results in SQLite (a file path) or PostgreSQL (a postgresql:// URL)."""

    def __init__(self, target: Path | str) -> None:
        self.path: Path | None = None
        self.target = str(target)  # as given, password included: what a cluster node opens
        self.machine: str | None = None  # the machine class every saved result is tagged with
        if is_url(target):
            url = _postgres_url(str(target))
            self.location = url.render_as_string(hide_password=True)
            self.engine = create_engine(
                url.set(drivername="postgresql+psycopg"), pool_pre_ping=True
            )
        else:
            self.path = Path(target)
            self.location = str(self.path)
            self.engine = _sqlite_engine(self.path)
        self._insert = (
            postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        )
        try:
            with self.engine.begin() as conn:
                create(conn)
        except (SQLAlchemyError, SchemaMismatch) as exc:
            self.engine.dispose()
            # the driver's own message, without SQLAlchemy's statement and links
            why = str(getattr(exc, "orig", None) or exc).strip()
            raise StoreError(f"results database {self.location}: {why}") from exc

    def close(self) -> None:
        self.engine.dispose()

    def _upsert(self, table: Table, key: Sequence[str], rows: list[dict[str, Any]]) -> None:
        """Insert rows; a row whose key is stored already replaces that row's values."""
        if not rows:
            return
        stmt = self._insert(table)
        stmt = stmt.on_conflict_do_update(
            index_elements=list(key),
            set_={c.name: stmt.excluded[c.name] for c in table.columns if c.name not in key},
        )
        with self.engine.begin() as conn:
            conn.execute(stmt, rows)

    def _all(self, query: Any) -> list[RowMapping]:
        with self.engine.connect() as conn:
            return list(conn.execute(query).mappings())

    def new_run(self, config: dict[str, Any], environment: dict[str, Any]) -> int:
        with self.engine.begin() as conn:
            res = conn.execute(
                runs.insert().values(
                    started_at=_now(),
                    status="running",
                    config=json.dumps(config),
                    environment=json.dumps(environment),
                )
            )
            return int(res.inserted_primary_key[0])

    def finish_run(self, run_id: int, status: str = "finished") -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(runs).where(runs.c.id == run_id).values(status=status, finished_at=_now())
            )

    def note_environment(self, run_id: int, fields: dict[str, Any]) -> None:
        """Add what the run learnt about its machine while it ran to its environment record."""
        row = self.run(run_id)
        if row is None:
            raise LookupError(f"no run {run_id}")
        environment = {**json.loads(row["environment"]), **fields}
        with self.engine.begin() as conn:
            conn.execute(
                update(runs).where(runs.c.id == run_id).values(environment=json.dumps(environment))
            )

    def run(self, run_id: int | None = None) -> RowMapping | None:
        query = select(runs).order_by(runs.c.id.desc()).limit(1)
        if run_id is not None:
            query = select(runs).where(runs.c.id == run_id)
        found = self._all(query)
        return found[0] if found else None

    def runs(self) -> list[RowMapping]:
        return self._all(select(runs).order_by(runs.c.id))

    def save_serializers(self, run_id: int, runner: str, describe: dict[str, Any]) -> None:
        rows = [
            {
                "run_id": run_id,
                "runner": runner,
                "name": s["name"],
                "format": s.get("format"),
                "library": s.get("library"),
                "version": s.get("version"),
                "labels": json.dumps(s.get("labels", [])),
                "footprint_bytes": s.get("footprint_bytes"),
                "datasets": json.dumps(s.get("datasets", {})),
                "runtime": json.dumps(describe.get("runtime", {})),
            }
            for s in describe.get("serializers", [])
        ]
        self._upsert(serializers, ("run_id", "runner", "name"), rows)

    def serializers(self, run_id: int) -> list[RowMapping]:
        return self._all(
            select(serializers)
            .where(serializers.c.run_id == run_id)
            .order_by(serializers.c.runner, serializers.c.name)
        )

    def save_result(self, run_id: int, key: CellKey, result: dict[str, Any]) -> None:
        check = result.get("check") or {}
        error = result.get("error") or {}
        row = {
            "run_id": run_id,
            **{f.name: getattr(key, f.name) for f in dataclasses.fields(key)},
            "status": result.get("status", "error"),
            "error_code": error.get("code"),
            "error_message": error.get("message"),
            "check_ok": None if "ok" not in check else int(bool(check["ok"])),
            "check_detail": check.get("detail"),
            "messages": result.get("messages"),
            "sizes": json.dumps(result.get("sizes")),
            "timing": json.dumps(result.get("timing")),
            "created_at": _now(),
            "machine": self.machine,
        }
        self._upsert(results, CELL, [row])

    def save_machine(self, class_id: str, identity: dict[str, Any]) -> None:
        """A machine class, stored once (the first sighting is kept)."""
        stmt = self._insert(machines).on_conflict_do_nothing(index_elements=["id"])
        with self.engine.begin() as conn:
            conn.execute(
                stmt, [{"id": class_id, "identity": json.dumps(identity), "first_seen": _now()}]
            )

    def machines(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: json.loads(r["identity"]) for r in self._all(select(machines))}

    def machine_counts(self, run_id: int) -> dict[str | None, int]:
        """Result rows of a run per machine class (None: stored without one)."""
        query = (
            select(results.c.machine, func.count())
            # a not-applicable row is the plan's, measured nowhere
            .where(results.c.run_id == run_id, results.c.status != "not_applicable")
            .group_by(results.c.machine)
        )
        with self.engine.connect() as conn:
            return {m: int(n) for m, n in conn.execute(query)}

    def save_transfer(
        self,
        run_id: int,
        sender: str,
        receiver: str,
        dataset: str,
        result: dict[str, Any] | None,
        error: str | None = None,
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                transfers_table.insert().values(
                    run_id=run_id,
                    sender=sender,
                    receiver=receiver,
                    dataset=dataset,
                    status="error" if error else "ok",
                    error=error,
                    result=json.dumps(result) if result is not None else None,
                    created_at=_now(),
                )
            )

    def transfers(self, dataset: str) -> list[RowMapping]:
        """The latest transfer of every sender/receiver pair on this dataset."""
        t, older = transfers_table, transfers_table.alias()
        latest = (
            select(func.max(older.c.id))
            .where(
                older.c.sender == t.c.sender,
                older.c.receiver == t.c.receiver,
                older.c.dataset == t.c.dataset,
            )
            .scalar_subquery()
        )
        return self._all(select(t).where(t.c.dataset == dataset, t.c.id == latest).order_by(t.c.id))

    def save_untrusted(self, rows: list[dict[str, Any]]) -> None:
        """Outcomes of untrusted inputs (keys of UNTRUSTED_KEY plus outcome, detail, ...)."""
        self._upsert(untrusted_outcomes, UNTRUSTED_KEY, [{**r, "created_at": _now()} for r in rows])

    def untrusted(self, session: str) -> list[RowMapping]:
        u = untrusted_outcomes.c
        return self._all(select(untrusted_outcomes).where(u.session == session).order_by(u.id))

    def done_keys(self, run_id: int) -> set[CellKey]:
        names = [f.name for f in dataclasses.fields(CellKey)]
        rows = self._all(select(*(results.c[n] for n in names)).where(results.c.run_id == run_id))
        return {CellKey(**row) for row in rows}

    def forget_results(self, run_id: int, dataset: str, from_process: int) -> None:
        """Drop a dataset's results of this process number and later (tie-break processes
        decided on figures that were measured again)."""
        r = results.c
        with self.engine.begin() as conn:
            conn.execute(
                delete(results).where(
                    r.run_id == run_id, r.dataset == dataset, r.process >= from_process
                )
            )

    def results(self, run_id: int) -> list[RowMapping]:
        r = results.c
        return self._all(
            select(results)
            .where(r.run_id == run_id)
            .order_by(r.dataset, r.runner, r.serializer, r.operation, r.process)
        )


def decode_json(rows: Iterable[Mapping[str, Any]], *fields: str) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        item = dict(row)
        for f in fields:
            if item.get(f) is not None:
                item[f] = json.loads(item[f])
        out.append(item)
    return out
