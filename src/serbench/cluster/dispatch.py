"""The head's side of a cluster run: accept nodes, hand out blocks, re-run lost ones.

A node offers itself by the custom resource NODE_RESOURCE (`ray start --resources
'{"serbench_node": 1}'`): one unit, so it measures one block at a time and two blocks never
share its cores. Each block is a Ray task pinned to a free accepted node; its results go
straight from the node into the database. A task whose worker or node dies loses only the
results it had not stored: its block goes back to the queue, to another node where there is
one, and the re-run skips every result the database already holds.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ray
from ray.exceptions import RayError, RayTaskError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from serbench import instructions, orchestrate
from serbench.cluster import ClusterError, node
from serbench.orchestrate import Plan, Progress, RunConfig
from serbench.schedule import Cell
from serbench.store import CellKey, Store
from serbench.timing import CLUSTER_WAIT_S

NODE_RESOURCE = "serbench_node"
MAX_ATTEMPTS = 3  # a block lost this many times is a fault of the block, not of a node
Say = Callable[[str], None]


@dataclass
class Summary:
    """What happened, for the user and the tests."""

    nodes: dict[str, str] = field(default_factory=dict)  # accepted node id: its host
    refused: dict[str, list[str]] = field(default_factory=dict)  # node id: differences
    blocks: int = 0
    lost: list[str] = field(default_factory=list)  # a block's name, once per loss
    placed: dict[str, list[str]] = field(default_factory=dict)  # block: node ids, in order
    saved: int = 0


def connect(address: str) -> None:
    """Join the cluster as its driver: `auto` (the cluster this machine is a node of),
    HOST:PORT (its head, this machine a node too) or ray://HOST:PORT (Ray Client)."""
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False, logging_level="WARNING")


# the node's two tasks, made remote functions once (Ray exports each to the cluster once)
_TASKS = {fn: ray.remote(fn) for fn in (node.identify, node.run_block)}


def _remote(fn: Callable[..., Any], node_id: str) -> Any:
    return _TASKS[fn].options(
        num_cpus=0,
        resources={NODE_RESOURCE: 1},
        max_retries=0,  # the head re-runs a lost block itself, on another node
        scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False),
    )


def _offered() -> dict[str, str]:
    return {
        n["NodeID"]: n["NodeManagerAddress"]
        for n in ray.nodes()
        if n["Alive"] and n["Resources"].get(NODE_RESOURCE)
    }


def accept(want: dict[str, Any], specs: dict[str, Any], summary: Summary, say: Say) -> set[str]:
    """The offered nodes not yet judged, asked who they are; those that match ``want``
    join the run, the others are refused with each difference named."""
    new = {i: a for i, a in _offered().items() if i not in summary.nodes | summary.refused}
    # only the planned runners: describing the others (a JVM's start, a CLR's) costs the
    # node seconds before its first block and decides nothing
    planned = {name: spec for name, spec in specs.items() if name in want["runners"]}
    asked = {i: _remote(node.identify, i).remote(planned) for i in new}
    accepted = set()
    for node_id, ref in asked.items():
        try:
            have = ray.get(ref)
        except RayError as exc:
            say(f"node {new[node_id]} ({node_id[:8]}) did not answer: {exc}")
            continue
        diff = node.differences(want, have)
        if diff:
            summary.refused[node_id] = diff
            say(f"node {have['hostname']} ({node_id[:8]}) refused: " + "; ".join(diff))
        else:
            summary.nodes[node_id] = have["hostname"]
            accepted.add(node_id)
    return accepted


def blocks(cells: list[Cell], measure: str = "time") -> list[node.Block]:
    """Time: a dataset, every runner and process round of it, as a run on one machine
    measures it (its runners' processes side by side, so that a cell's processes see the
    same minutes of the machine). Counting instructions: runner x process index, every
    dataset, in the order a run on one machine counts them: a count depends on what the
    process did before (the allocator's state), so only the same sequence of cells in one
    process gives the same counts. Largest first, so the last blocks are short."""
    grouped: dict[tuple[str, str | int], list[Cell]] = defaultdict(list)
    counting = measure == instructions.UNIT
    for c in sorted(cells, key=lambda c: c.dataset) if counting else cells:
        grouped[(c.runner, c.process) if counting else ("", c.dataset)].append(c)
    out = [
        node.Block(runner, group[0].dataset, group, f"process {of}")
        if counting
        else node.Block(", ".join(sorted({c.runner for c in group})), group[0].dataset, group)
        for (runner, of), group in grouped.items()
    ]
    return sorted(out, key=lambda b: -len(b.cells))


def execute(
    config: RunConfig,
    the_plan: Plan,
    store: Store,
    run_id: int,
    progress: Progress,
    done: set[CellKey],
    address: str,
    say: Say = print,
) -> Summary:
    """Every planned cell not in ``done``, measured on the cluster's nodes."""
    connect(address)
    ops = config.operations
    for cell, reason in the_plan.not_applicable:
        for op in ops:
            if cell.key(op) not in done:
                error = {"code": "not_applicable", "message": reason}
                store.save_result(
                    run_id, cell.key(op), {"status": "not_applicable", "error": error}
                )
    todo = [c for c in the_plan.cells if not {c.key(op) for op in ops} <= done]
    want = node.expected(the_plan.describes)
    specs = the_plan.specs
    queue = deque(blocks(todo, config.measure))
    summary = Summary(blocks=len(queue))
    free = accept(want, specs, summary, say)
    running: dict[Any, tuple[str, node.Block]] = {}
    failed_on: dict[str, set[str]] = defaultdict(set)
    cfg = orchestrate.config_json(config)
    budget = orchestrate.Budget(config.budget_s) if config.budget_s else None
    db = node.without_password(store.target)
    while queue or running:
        alive = set(_offered()) & set(summary.nodes)
        free &= alive
        while queue and free:
            block = queue[0]
            fresh = free - failed_on[block.name]
            # another node where there is one; the same node when it is the only one left
            if not fresh and alive - failed_on[block.name] - free:
                break  # a node that has not lost this block is busy: wait for it
            target = min(fresh or free)
            queue.popleft()
            free.discard(target)
            share = _budget_share(budget, block, queue, len(alive)) if budget else None
            ref = _remote(node.run_block, target).remote(
                db, run_id, {**cfg, "budget_s": share}, block, specs
            )
            running[ref] = (target, block)
            summary.placed.setdefault(block.name, []).append(target)
            progress(f"{block.name} on {_name(summary, target)}", 0)
        if not running:
            free |= accept(want, specs, summary, say)
            if not free:
                raise ClusterError(_nobody(summary, len(queue)))
            continue
        ready, _ = ray.wait(list(running), num_returns=1, timeout=CLUSTER_WAIT_S)
        for ref in ready:
            target, block = running.pop(ref)
            try:
                saved = ray.get(ref)
            except RayTaskError as exc:  # serbench's own error on the node: not a lost node
                raise ClusterError(f"block {block.name} failed on {target[:8]}: {exc}") from exc
            except RayError as exc:
                summary.lost.append(block.name)
                failed_on[block.name].add(target)
                if len(failed_on[block.name]) >= MAX_ATTEMPTS:
                    raise ClusterError(f"block {block.name} lost {MAX_ATTEMPTS} times") from exc
                say(
                    f"block {block.name} lost on {_name(summary, target)} ({type(exc).__name__});"
                    " running it again"
                )
                queue.appendleft(block)
                if target in _offered():
                    free.add(target)
                continue
            summary.saved += len(saved)
            progress(f"{block.name} done", len(saved))
            free.add(target)
        # a node that joined while blocks ran takes work too
        free |= accept(want, specs, summary, say)
    return summary


def _budget_share(
    budget: orchestrate.Budget, block: node.Block, queue: deque[node.Block], nodes: int
) -> float:
    """The block's seconds of --budget: the time left times the nodes measuring side by
    side, shared among this block and those queued in proportion to their cells, and no
    more than the time left. A block past its share measures each operation to its minimum
    (a share of 0 would read as no budget at all: the least is a millisecond)."""
    waiting = len(block.cells) + sum(len(b.cells) for b in queue)
    left = max(budget.left(), 0.001)
    return min(left, left * max(nodes, 1) * len(block.cells) / waiting)


def _name(summary: Summary, node_id: str) -> str:
    return f"{summary.nodes.get(node_id, '?')}/{node_id[:8]}"


def _nobody(summary: Summary, left: int) -> str:
    refused = "".join(f"\n  {i[:8]}: {'; '.join(d)}" for i, d in summary.refused.items())
    return (
        f"no cluster node can take the run's {left} remaining blocks: a node offers itself "
        f"with `ray start ... --resources '{{\"{NODE_RESOURCE}\": 1}}'`"
        + (f"; refused:{refused}" if refused else "")
    )
