"""`--resume`: the latest session of a command, and what it already stored.

Every outcome is stored as its batch answers (table `untrusted_outcomes`), so a run that
was killed is continued by feeding only the inputs it has no outcome for; the stored ones
count in the report as if they had just been fed."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select

from serbench.store import Store
from serbench.store_schema import untrusted_outcomes

Stored = dict[str, dict[str, Any]]  # case name -> its stored row


def latest_session(store: Store, command: str) -> str | None:
    u = untrusted_outcomes.c
    query = select(u.session).where(u.command == command).order_by(u.id.desc()).limit(1)
    with store.engine.connect() as conn:
        return conn.execute(query).scalar()


def stored(store: Store, session: str) -> dict[tuple[str, str, str], Stored]:
    """(runner, serializer, dataset) -> the outcomes the session stored for it."""
    out: dict[tuple[str, str, str], Stored] = defaultdict(dict)
    for row in store.untrusted(session):
        out[(row["runner"], row["serializer"], row["dataset"])][row["case_name"]] = dict(row)
    return out
