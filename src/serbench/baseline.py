"""Named baselines: a name for a stored run (`serbench baseline save main 12`), so that
`serbench compare main` compares against it. Kept in the state directory
(baselines.json), each name with the database that holds its run."""

from __future__ import annotations

import json
from pathlib import Path

from serbench.paths import state_dir
from serbench.store import Store


def _file() -> Path:
    return state_dir() / "baselines.json"


def saved() -> dict[str, dict[str, object]]:
    path = _file()
    if not path.is_file():
        return {}
    try:
        return dict(json.loads(path.read_text()))
    except ValueError as exc:
        raise LookupError(f"{path}: not valid JSON ({exc}); delete or fix it") from exc


def save(store: Store, db: str, name: str, run_id: int | None = None) -> int:
    """Point ``name`` at ``run_id`` of database ``db`` (default: its latest run)."""
    if name.isdigit() or name == "latest":
        raise ValueError(f"baseline name {name!r} would read as a run id; choose another")
    row = store.run(run_id)
    if row is None:
        raise LookupError("no runs in the database yet" if run_id is None else f"no run {run_id}")
    names = saved()
    names[name] = {"run": int(row["id"]), "db": db}
    _file().parent.mkdir(parents=True, exist_ok=True)
    _file().write_text(json.dumps(names, indent=2) + "\n")
    return int(row["id"])


def resolve(ref: str, db: str) -> int | None:
    """A run id from a run number, `latest` (None: the latest run) or a baseline name."""
    if ref.isdigit():
        return int(ref)
    if ref == "latest":
        return None
    names = saved()
    if ref not in names:
        known = ", ".join(sorted(names)) or "none saved (`serbench baseline save NAME [RUN]`)"
        raise LookupError(f"{ref!r} is neither a run id nor a baseline; baselines: {known}")
    if names[ref]["db"] != db:
        raise LookupError(f"baseline {ref!r} is run {names[ref]['run']} of {names[ref]['db']}")
    return int(names[ref]["run"])  # type: ignore[call-overload]
