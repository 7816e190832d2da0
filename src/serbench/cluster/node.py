"""What a cluster node does: say who it is, and measure one block into the database.

Both run inside a Ray task on the node, but need no Ray: the node's own checkout, runners
and environment are what they read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import URL, make_url

from serbench import environment, orchestrate
from serbench.cluster import machine
from serbench.runners import RunnerSpec, describe_all, discover
from serbench.schedule import Cell
from serbench.store import CellKey, Store, is_url


@dataclass
class Block:
    """In time mode one dataset's cells, every runner and process round of them (the
    rounds stay together so that a tie-break process sees the neighbours the cells had); in
    instruction mode one runner process's cells of every dataset (dispatch.blocks)."""

    runner: str  # time mode: its runners, comma-separated
    dataset: str  # the first of its cells' datasets
    cells: list[Cell]
    process: str = ""  # instruction mode: which of the runner's processes

    @property
    def name(self) -> str:
        if self.process:
            return f"{self.runner} {self.process}"
        return f"{self.runner} x {self.dataset}"


def runner_summary(describe: dict[str, Any]) -> dict[str, Any]:
    """What must match between nodes for their figures to be one run's: the runtime and
    each serializer's library version (what the build linked)."""
    return {
        "runtime": describe.get("runtime", {}),
        "serializers": {s["name"]: s.get("version") for s in describe.get("serializers", [])},
    }


def expected(describes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The identity every node must have: the head's checkout and the planned runners."""
    env = environment.collect()
    return {
        "git_commit": env["git_commit"],
        "serbench": env["serbench"],
        "python": env["python"],
        "runners": {name: runner_summary(d) for name, d in describes.items()},
    }


def local_specs(head: dict[str, RunnerSpec]) -> dict[str, RunnerSpec]:
    """The node's own build of each planned runner; a runner the node's checkout does not
    list (one given to the run directly) runs as the head described it."""
    mine = discover()
    return {name: mine.get(name, spec) for name, spec in head.items()}


def identify(head_specs: dict[str, RunnerSpec]) -> dict[str, Any]:
    """This node's identity, in the shape of ``expected`` plus who and what it is."""
    env = environment.collect()
    describes, unavailable = describe_all(local_specs(head_specs))
    return {
        "git_commit": env["git_commit"],
        "serbench": env["serbench"],
        "python": env["python"],
        "runners": {name: runner_summary(d) for name, d in describes.items()},
        "unavailable": unavailable,
        "hostname": env["hostname"],
        "machine": machine.class_id(machine.identity(env)),
    }


def differences(want: dict[str, Any], have: dict[str, Any]) -> list[str]:
    """Each way this node differs from the run, named; empty: the node may measure."""
    out = [
        f"{what} {have.get(key)} (the run's: {want.get(key)})"
        for key, what in (
            ("git_commit", "git commit"),
            ("serbench", "serbench"),
            ("python", "Python"),
        )
        if have.get(key) != want.get(key)
    ]
    for name, runner in want["runners"].items():
        theirs = have["runners"].get(name)
        if theirs is None:
            why = have.get("unavailable", {}).get(name, "not found")
            out.append(f"runner {name} unavailable: {why}")
            continue
        if theirs["runtime"] != runner["runtime"]:
            out.append(
                f"runner {name} runtime {theirs['runtime']} (the run's: {runner['runtime']})"
            )
        for s, version in runner["serializers"].items():
            if s not in theirs["serializers"]:
                out.append(f"runner {name} has no serializer {s}")
            elif theirs["serializers"][s] != version:
                out.append(
                    f"runner {name} serializer {s} version {theirs['serializers'][s]}"
                    f" (the run's: {version})"
                )
    return out


def without_password(target: str) -> str:
    """The run's database as the head sends it to the nodes: a PostgreSQL URL loses its
    password (Ray keeps task arguments in its object store and logs)."""
    if not is_url(target):
        return target
    u = make_url(target)  # URL.set() cannot unset a field: a new URL without it
    bare = URL.create(u.drivername, u.username, None, u.host, u.port, u.database, u.query)
    return bare.render_as_string(hide_password=False)


def open_store(target: str) -> Store:
    """The run's database on this node: its own SERBENCH_DB where that is the same
    database (with the password), else ``target`` as sent, whose password libpq then reads
    from PGPASSWORD or ~/.pgpass."""
    own = os.environ.get("SERBENCH_DB")
    if own and is_url(target) and is_url(own) and without_password(own) == target:
        return Store(own)
    return Store(target)


def _quiet(description: str, finished: int, more: int = 0) -> None:
    """Progress is the head's: it counts blocks as they come back."""


def run_block(
    db: str,
    run_id: int,
    config: dict[str, Any],
    block: Block,
    head_specs: dict[str, RunnerSpec],
) -> list[CellKey]:
    """Measure the block's cells that the database does not hold yet, storing each result
    as it is measured; the keys this call stored. ``config``'s budget is the block's share
    of the run's."""
    cfg = orchestrate.RunConfig(**config)
    store = open_store(db)
    try:
        machine.register(store, environment.collect())
        done = store.done_keys(run_id)
        saved: list[CellKey] = []
        original = store.save_result

        def save(run: int, key: CellKey, result: dict[str, Any]) -> None:
            original(run, key, result)
            saved.append(key)

        store.save_result = save  # type: ignore[method-assign]
        # every runner's spec: a tie-break looks at the whole dataset's unsettled cells
        specs = local_specs(head_specs)
        sub = orchestrate.Plan(block.cells, {}, {}, [], specs)
        orchestrate.execute(cfg, sub, store, run_id, _quiet, done)
        return saved
    finally:
        store.close()
