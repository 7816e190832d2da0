"""What a cluster node does: say who it is, and measure one block into the database.

Both run inside a Ray task on the node, but need no Ray: the node's own checkout, runners
and environment are what they read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from serbench import environment, orchestrate
from serbench.cluster import machine
from serbench.runners import RunnerSpec, describe_all, discover
from serbench.schedule import Cell
from serbench.store import CellKey, Store


@dataclass
class Block:
    """One runner's cells of one dataset, every process round of them (the rounds stay
    together so that a tie-break process sees the neighbours the cells had)."""

    runner: str
    dataset: str
    cells: list[Cell]

    @property
    def name(self) -> str:
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
    as it is measured; the keys this call stored."""
    cfg = orchestrate.RunConfig(**config)
    cfg.budget_s = None  # a budget is the whole run's; a block has no share of it here
    store = Store(db)
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
