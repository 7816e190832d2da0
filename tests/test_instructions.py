"""`run --measure instructions`: counts under callgrind are positive, repeat within 1%, are
stored so that the report and `compare` read them, and JIT runners are refused."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import runner_or_skip

from serbench import compare, instructions, orchestrate, report
from serbench.runners import PYTHON
from serbench.store import Store
from serbench.timing import QUICK

CELL = {"datasets": ["android-users"], "serializers": ["msgpack"], "operations": ["encode"]}


@pytest.fixture(autouse=True)
def _valgrind() -> None:
    if shutil.which("valgrind") is None and os.environ.get("SERBENCH_REQUIRE_RUNNERS") != "1":
        pytest.skip("valgrind is not installed (scripts/apt-packages.txt)")


def _run(store: Store, runner: str, specs: dict | None = None) -> int:
    config = orchestrate.RunConfig.for_scale("quick")
    config.runners, config.measure = [runner], instructions.UNIT
    for field, value in CELL.items():
        setattr(config, field, value)
    the_plan = orchestrate.plan(config, specs)
    run_id = store.new_run(orchestrate.config_json(config), {})
    orchestrate.execute(config, the_plan, store, run_id, lambda *_: None)
    return run_id


def _per_op(store: Store, run_id: int) -> list[float]:
    """Every repeat's count per operation, over all of the run's processes."""
    (row,) = report.build(store, run_id).tables["android-users"]
    assert row.status == "ok", row.detail
    timings = row.raw["encode"]
    assert len(timings) == QUICK.processes
    assert all(t["unit"] == instructions.UNIT for t in timings)
    return [v / t["iterations"] for t in timings for v in t["wall_ns"]]


def _spread(values: list[float]) -> float:
    return (max(values) - min(values)) / min(values)


def test_callgrind_total_reads_the_summary(tmp_path: Path) -> None:
    dump = tmp_path / "cg.1.1"
    dump.write_text("# callgrind format\nevents: Ir\nsummary: 1234\n\nfn=main\n1 1234\n")
    assert instructions.callgrind_total(dump) == 1234
    dump.write_text("events: Ir\n")
    with pytest.raises(ValueError, match="summary"):
        instructions.callgrind_total(dump)


@pytest.mark.parametrize("runner", ["python", "cpp"])
def test_counts_are_positive_and_repeat(runner: str, tmp_path: Path) -> None:
    runner_or_skip(runner)
    store = Store(tmp_path / "results.sqlite")
    counts = _per_op(store, _run(store, runner))
    assert len(counts) == instructions.COUNTING["quick"].repeats * QUICK.processes
    assert min(counts) > 0
    assert _spread(counts) < 0.01, counts  # repeats and fresh processes alike
    rep = report.build(store, 1)
    assert rep.unit == instructions.UNIT
    assert "instr" in report.fmt_est(rep.tables["android-users"][0].ops["encode"], unit=rep.unit)
    if runner == "cpp":  # deterministic code: a second run agrees, and compare sees no change
        again = _per_op(store, _run(store, runner))
        assert abs(sum(again) / sum(counts) - 1) < 0.01
        result = compare.compare(report.build(store, 1), report.build(store, 2))
        assert [c.verdict for c in result.cells] == ["no difference"]


def test_jit_runners_are_refused(tmp_path: Path) -> None:
    with pytest.raises(instructions.Refused, match="compiles code while it runs"):
        instructions.check(instructions.UNIT, ["node"])
    with pytest.raises(instructions.Refused, match="unknown measure"):
        instructions.check("cycles", [])
    # unnamed, a JIT runner's cells are stored as not applicable, with the reason
    store = Store(tmp_path / "results.sqlite")
    jit = replace(PYTHON, jit=True)
    run_id = _run(store, "python", {"python": jit})
    (row,) = report.build(store, run_id).tables["android-users"]
    assert row.status == "n/a" and "measure the JIT" in row.detail
