"""Machine classes: which results may be pooled.

Every result carries the class of the machine that measured it (results.machine): a short
hash of what makes two machines time alike (CPU model and flags, cores, memory, kernel,
frequency governor, Python). The full identity is kept once per class in the machines
table. A report or comparison over results of more than one class is refused unless the
user asks to pool them: figures from different hardware are not one population.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from serbench.store import Store

# environment.collect()'s fields that define a class; hostname, git and noise do not
CLASS_FIELDS = (
    "cpu_model",
    "cpu_flags",
    "cpu_count",
    "memory_gib",
    "kernel",
    "governor",
    "python",
)


class MixedMachines(ValueError):
    """Results from more than one machine class, not asked to be pooled."""


def identity(env: dict[str, Any]) -> dict[str, Any]:
    """The class-defining part of an environment.collect() record."""
    mem = env.get("memory_kib")
    out = {k: env.get(k) for k in CLASS_FIELDS if k != "memory_gib"}
    # MemTotal moves by a few MiB with the kernel's reservations: whole GiB are the class
    out["memory_gib"] = round(mem / (1 << 20)) if mem else None
    return out


def class_id(ident: dict[str, Any]) -> str:
    digest = hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:12]
    return f"{ident.get('cpu_count') or '?'}c-{digest}"


def describe(ident: dict[str, Any]) -> str:
    """One line a user can tell two classes apart by."""
    flags = ident.get("cpu_flags") or ""
    return (
        f"{ident.get('cpu_model') or 'unknown CPU'}, {ident.get('cpu_count')} cores, "
        f"{ident.get('memory_gib')} GiB, kernel {ident.get('kernel')}, "
        f"governor {ident.get('governor')}, Python {ident.get('python')}, "
        f"{len(flags.split())} CPU flags"
    )


def register(store: Store, env: dict[str, Any]) -> str:
    """Store this machine's class (once) and make the store tag every result with it."""
    ident = identity(env)
    cid = class_id(ident)
    store.save_machine(cid, ident)
    store.machine = cid
    return cid


def classes(store: Store, run_ids: Iterable[int]) -> Counter[str]:
    """Result rows per machine class over these runs; a row without a class (stored before
    classes were kept) counts under its run's environment."""
    counts: Counter[str] = Counter()
    for run_id in run_ids:
        row = store.run(run_id)
        fallback = None
        if row is not None:
            fallback = class_id(identity(json.loads(row["environment"] or "{}")))
        for cid, n in store.machine_counts(run_id).items():
            counts[cid or fallback or "unknown"] += n
    return counts


def check(store: Store, run_ids: Iterable[int | None], pool: bool) -> None:
    """MixedMachines naming each class, unless the results are of one class or ``pool``.
    A run id None is the latest run; a run that does not exist is left to the caller."""
    ids = [r["id"] for r in map(store.run, run_ids) if r is not None]
    counts = classes(store, ids)
    if pool or len(counts) <= 1:
        return
    known = store.machines()
    lines = [
        f"  {cid}: {n} results, {describe(known[cid]) if cid in known else 'identity unknown'}"
        for cid, n in sorted(counts.items())
    ]
    raise MixedMachines(
        f"these results come from {len(counts)} machine classes:\n"
        + "\n".join(lines)
        + "\nfigures from different machines are not pooled; give --pool-machines to pool them"
    )
