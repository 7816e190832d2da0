"""The results database's tables, defined once for SQLite and PostgreSQL.

JSON documents are stored as text and timestamps as ISO 8601 text on both backends, so a
row reads back the same whichever database holds it.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    inspect,
    text,
)
from sqlalchemy.schema import CreateTable

# SQLite makes only a column typed exactly INTEGER an alias of its rowid; PostgreSQL gets
# 64-bit server-made ids (bigserial), so many machines' results never run out of them.
Id = BigInteger().with_variant(Integer(), "sqlite")
# Names sort bytewise on both backends (SQLite's default), whatever the server's locale.
Name = Text().with_variant(Text(collation="C"), "postgresql")

metadata = MetaData()

runs = Table(
    "runs",
    metadata,
    Column("id", Id, primary_key=True),
    Column("started_at", Text, nullable=False),
    Column("finished_at", Text),
    Column("status", Text, nullable=False),
    Column("config", Text, nullable=False),
    Column("environment", Text, nullable=False),
)

serializers = Table(
    "serializers",
    metadata,
    Column("run_id", Id, ForeignKey("runs.id"), nullable=False),
    Column("runner", Name, nullable=False),
    Column("name", Name, nullable=False),
    Column("format", Text),
    Column("library", Text),
    Column("version", Text),
    Column("labels", Text),
    Column("footprint_bytes", BigInteger),
    Column("datasets", Text),
    Column("runtime", Text),
    PrimaryKeyConstraint("run_id", "runner", "name"),
)

transfers = Table(
    "transfers",
    metadata,
    Column("id", Id, primary_key=True),
    Column("run_id", Id, ForeignKey("runs.id"), nullable=False),
    Column("sender", Name, nullable=False),
    Column("receiver", Name, nullable=False),
    Column("dataset", Name, nullable=False),
    Column("status", Text, nullable=False),
    Column("error", Text),
    Column("result", Text),
    Column("created_at", Text, nullable=False),
)

CELL = ("run_id", "runner", "serializer", "dataset", "operation", "process")
results = Table(
    "results",
    metadata,
    Column("id", Id, primary_key=True),
    Column("run_id", Id, ForeignKey("runs.id"), nullable=False),
    Column("runner", Name, nullable=False),
    Column("serializer", Name, nullable=False),
    Column("dataset", Name, nullable=False),
    Column("operation", Name, nullable=False),
    Column("process", Integer, nullable=False),
    Column("status", Text, nullable=False),
    Column("error_code", Text),
    Column("error_message", Text),
    Column("check_ok", Integer),
    Column("check_detail", Text),
    Column("messages", BigInteger),
    Column("sizes", Text),
    Column("timing", Text),
    Column("created_at", Text, nullable=False),
    # the class of the machine that measured it (machines.id; cluster/machine.py)
    Column("machine", Name),
    UniqueConstraint(*CELL),
)

# One row per machine class: what makes two machines time alike (cluster/machine.py).
machines = Table(
    "machines",
    metadata,
    Column("id", Name, primary_key=True),
    Column("identity", Text, nullable=False),
    Column("first_seen", Text, nullable=False),
)

# Nullable columns added since a table was first made: added to an older database on open.
ADDED_COLUMNS = {"results": ("machine",)}

# `serbench conformance` / `robustness`: one row per input as its outcome is known, so a
# run that dies keeps every outcome it had (docs/runner-protocol.md section 11).
UNTRUSTED_KEY = ("session", "runner", "serializer", "dataset", "case_name")
untrusted_outcomes = Table(
    "untrusted_outcomes",
    metadata,
    Column("id", Id, primary_key=True),
    Column("session", Name, nullable=False),
    Column("command", Text, nullable=False),
    Column("runner", Name, nullable=False),
    Column("serializer", Name, nullable=False),
    Column("dataset", Name, nullable=False),
    Column("case_name", Name, nullable=False),
    Column("outcome", Text, nullable=False),
    Column("detail", Text),
    Column("input_sha256", Text),
    Column("ns", BigInteger),
    Column("created_at", Text, nullable=False),
    UniqueConstraint(*UNTRUSTED_KEY),
)

# Any constant: the key of the PostgreSQL lock that makes creating the tables one at a time.
_SCHEMA_LOCK = 0x5E4B_E4C4


class SchemaMismatch(RuntimeError):
    pass


def create(conn: Connection) -> None:
    """Create the missing tables, then check the existing ones have every column.

    Runs inside the caller's transaction. On PostgreSQL a transaction-scoped advisory lock
    makes two machines that open a fresh database at once create its tables one at a time.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
    for table in metadata.sorted_tables:
        conn.execute(CreateTable(table, if_not_exists=True))
    found = inspect(conn)
    for name, added in ADDED_COLUMNS.items():
        have = {c["name"] for c in found.get_columns(name)}
        for column in added:
            if column not in have:
                conn.execute(text(f"ALTER TABLE {name} ADD COLUMN {column} TEXT"))
    found = inspect(conn)
    for table in metadata.sorted_tables:
        have = {c["name"] for c in found.get_columns(table.name)}
        missing = [c.name for c in table.columns if c.name not in have]
        if missing:
            raise SchemaMismatch(
                f"table {table.name} lacks column(s) {', '.join(missing)}: this database was "
                "not made by this version of serbench"
            )


def columns(conn: Connection) -> dict[str, list[str]]:
    """Every table this database has, with its column names in order."""
    found = inspect(conn)
    return {t: [c["name"] for c in found.get_columns(t)] for t in sorted(found.get_table_names())}
