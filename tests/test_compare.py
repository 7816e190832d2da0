"""`serbench compare`: matching the cells of two runs, the test, the verdicts, the CI gate and
named baselines, on synthetic runs whose truth is known."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from serbench import baseline, compare, report
from serbench.cli import app
from serbench.store import CellKey, Store

CELLS = [f"s{i}" for i in range(12)]  # serializers of the synthetic runner "syn"


def _timing(rng: np.random.Generator, ns: float, steady: bool = True) -> dict[str, Any]:
    """One process: 8 slices of 3 samples around ns (a per-process offset, phase noise)."""
    process = ns * rng.lognormal(0, 0.01)
    slices = process * rng.lognormal(0, 0.02, 8)
    samples = np.repeat(slices, 3) * rng.lognormal(0, 0.005, 24)
    return {
        "iterations": 10,
        "wall_ns": [float(x * 10) for x in samples],
        "slice_sizes": [3] * 8,
        "warmup": {"steady": steady, "slices": 4},
    }


def synthetic_run(
    store: Store,
    seed: int,
    times: dict[str, float],
    ng: tuple[str, ...] = (),
    unsteady: tuple[str, ...] = (),
    processes: int = 3,
) -> int:
    """A stored run of runner `syn` on android-users: encode and decode of every cell."""
    rng = np.random.default_rng(seed)
    run_id = store.new_run({"scale": "quick", "operations": ["encode", "decode"]}, {})
    sers = [{"name": s, "format": "x", "library": "lib", "labels": []} for s in times]
    store.save_serializers(run_id, "syn", {"serializers": sers})
    for name, ns in times.items():
        for op in ("encode", "decode"):
            for p in range(processes):
                result: dict[str, Any] = {"status": "ok", "check": {"ok": name not in ng}}
                if name in ng:
                    result = {"status": "check_failed", "check": {"ok": False, "detail": "$.x"}}
                else:
                    result |= {"messages": 1, "sizes": {"encoded": 100}}
                    result["timing"] = _timing(rng, ns, name not in unsteady)
                store.save_result(run_id, CellKey("syn", name, "android-users", op, p), result)
    store.finish_run(run_id)
    return run_id


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "c.sqlite")


def _verdicts(c: compare.Comparison) -> dict[tuple[str, str], str]:
    return {(x.cell.split("/")[1], x.operation): x.verdict for x in c.cells}


def test_identical_runs_show_no_difference(store: Store) -> None:
    times = {s: 1000.0 * (i + 1) for i, s in enumerate(CELLS)}
    calls = []
    for seed in range(3):
        a = synthetic_run(store, 2 * seed, times)
        b = synthetic_run(store, 2 * seed + 1, times)
        c = compare.compare(report.build(store, a), report.build(store, b))
        calls += [x.verdict for x in c.cells]
        assert all(x.low <= x.ratio <= x.high for x in c.cells)  # type: ignore[operator]
    assert calls.count("no difference") >= 0.95 * len(calls)


def test_a_slower_cell_is_called_slower_and_the_others_not(store: Store) -> None:
    times = {s: 1000.0 for s in CELLS}
    a = synthetic_run(store, 1, times)
    b = synthetic_run(store, 2, times | {"s0": 1200.0, "s1": 800.0})
    c = compare.compare(report.build(store, a), report.build(store, b))
    v = _verdicts(c)
    assert v[("s0", "encode")] == v[("s0", "decode")] == "slower"
    assert v[("s1", "encode")] == v[("s1", "decode")] == "faster"
    others = [verdict for (s, _), verdict in v.items() if s not in ("s0", "s1")]
    assert others.count("no difference") >= len(others) - 1
    slow = next(x for x in c.cells if x.cell == "syn/s0")
    assert slow.ratio == pytest.approx(1.2, rel=0.05) and slow.p is not None and slow.p < 0.01
    assert [x.cell for x in c.regressions(10)] == ["syn/s0", "syn/s0"]
    assert c.regressions(25) == []


def test_disagreement_beyond_the_intervals_widens_them(store: Store) -> None:
    """Every cell off by its own few percent while each run's intervals are narrow (a drifting
    machine): the factor grows, and identical code is not called different."""
    rng = np.random.default_rng(7)
    times = {s: 1000.0 for s in CELLS}
    a = synthetic_run(store, 1, times)
    b = synthetic_run(store, 2, {s: t * rng.lognormal(0, 0.06) for s, t in times.items()})
    c = compare.compare(report.build(store, a), report.build(store, b))
    assert c.inflation > 1.5
    assert list(c.counts()) == ["no difference"] or c.counts()["no difference"] >= 20


def test_ng_not_steady_added_and_removed_get_no_verdict(store: Store) -> None:
    times = {s: 1000.0 for s in CELLS[:4]}
    a = synthetic_run(store, 1, times | {"gone": 500.0}, ng=("s0",))
    b = synthetic_run(store, 2, times | {"new": 500.0}, unsteady=("s1",))
    c = compare.compare(report.build(store, a), report.build(store, b))
    v = _verdicts(c)
    assert v[("s0", "encode")] == "no verdict" and v[("s1", "decode")] == "no verdict"
    why = {x.cell: x.why for x in c.cells if x.verdict == "no verdict"}
    assert why["syn/s0"].startswith("A: NG") and why["syn/s1"] == "B: not-steady"
    assert v[("gone", "encode")] == "removed" and v[("new", "decode")] == "added"
    assert c.inflation == 1.0  # too few tested cells to estimate it


def _cli(db: Path, *args: str) -> Any:
    return CliRunner().invoke(app, [*args, "--db", str(db)])


def test_cli_gate_baselines_and_formats(store: Store, state: Path) -> None:
    db = store.path
    assert db is not None
    times = {s: 1000.0 for s in CELLS}
    a = synthetic_run(store, 1, times)
    synthetic_run(store, 2, times | {"s3": 1150.0})
    saved = _cli(db, "baseline", "save", "main", str(a))
    assert saved.exit_code == 0, saved.stderr
    gate = _cli(db, "compare", "main", "--fail-above", "5")
    assert gate.exit_code == 1, gate.stdout + gate.stderr
    assert "regression: android-users syn/s3 encode: +1" in gate.stderr.replace("\n", " ")
    assert _cli(db, "compare", "main", "--fail-above", "30").exit_code == 0
    out = json.loads(_cli(db, "compare", str(a), "latest", "--format", "json").stdout)
    assert out["counts"]["slower"] == 2 and len(out["cells"]) == 2 * len(CELLS)
    assert "| syn/s3 | encode |" in _cli(db, "compare", "main", "--format", "md").stdout
    unknown = _cli(db, "compare", "nope")
    assert unknown.exit_code == 2 and "neither a run id nor a baseline" in unknown.stderr
    assert baseline.resolve("main", str(db)) == a
    with pytest.raises(ValueError):
        baseline.save(store, str(db), "12")


def test_the_table_fits_the_terminal(store: Store) -> None:
    from rich.console import Console

    from serbench.report import compare as rendering

    times = {s: 1000.0 for s in CELLS[:3]}
    a, b = synthetic_run(store, 1, times), synthetic_run(store, 2, times)
    c = compare.compare(report.build(store, a), report.build(store, b))
    for width in (80, 140):
        console = Console(width=width, record=True)
        rendering.print_comparison(c, console)
        lines = console.export_text().splitlines()
        assert max(len(line) for line in lines) <= width
        header = next(line for line in lines if "B/A" in line)
        assert (" A " in header) == (width >= rendering.NARROW)
