"""The orchestrator survives crashing, hanging and babbling runners, and loses no result."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import assert_resumed_run_complete

from serbench import datasets, orchestrate, report, schedule
from serbench.report.text import agreement_facts
from serbench.runners import PYTHON, RunnerSpec
from serbench.store import Store
from serbench.timing import PRECISION_CAP

FIXTURES = Path(__file__).parent / "fixtures"
FAKE_BASE_NS = 2_000_000  # fake_runner.BASE_NS: a flat serializer's time per iteration
FAKE = RunnerSpec(
    name="fake",
    language="python",
    directory=FIXTURES,
    command=[sys.executable, str(FIXTURES / "fake_runner.py")],
)


def _quick(**fields: object) -> orchestrate.RunConfig:
    config = orchestrate.RunConfig.for_scale("quick")
    for k, v in fields.items():
        setattr(config, k, v)
    return config


def _run(
    config: orchestrate.RunConfig,
    store: Store,
    slow_share: float | None = None,
    spec: RunnerSpec = FAKE,
) -> int:
    the_plan = orchestrate.plan(config, {"fake": spec})
    run_id = store.new_run(orchestrate.config_json(config), {})
    orchestrate.execute(config, the_plan, store, run_id, lambda *_: None, None, slow_share)
    return run_id


@pytest.mark.parametrize("processes", [1, 2])
def test_faults_are_recorded_and_the_run_goes_on(state: Path, processes: int) -> None:
    store = Store(state / "r.sqlite")
    config = _quick(datasets=["android-users"], cell_timeout=3.0)
    config.timing = {**config.profile.with_processes(processes).as_dict(), "tiebreak_processes": 0}
    run_id = _run(config, store)
    got = {(r["serializer"], r["operation"], r["process"]): r for r in store.results(run_id)}
    assert len(got) == 11 * 2 * processes
    for p in range(processes):
        assert got[("good", "encode", p)]["status"] == "ok"
        assert got[("noop", "decode", p)]["status"] == "ok"
        assert got[("crash", "encode", p)]["error_code"] == "crashed"
        assert "exited 3" in got[("crash", "encode", p)]["error_message"]
        assert got[("hang", "decode", p)]["error_code"] == "timeout"
        assert got[("garbage", "encode", p)]["error_code"] == "malformed_output"
        assert got[("invalid", "encode", p)]["error_code"] == "malformed_output"
        assert "wall_ns" in got[("invalid", "encode", p)]["error_message"]
    timing = json.loads(got[("good", "decode", 0)]["timing"])
    assert timing["iterations"] == 1 and len(timing["slice_sizes"]) >= 3
    # not-applicable datasets are stored with their reason, not dropped
    config.datasets = ["log-records"]
    run2 = _run(config, store)
    assert {r["status"] for r in store.results(run2)} == {"not_applicable"}


def test_slices_interleave_and_warm_up_waits_for_steady_state(state: Path) -> None:
    store = Store(state / "s.sqlite")
    config = _quick(datasets=["android-users"], cell_timeout=3.0)
    config.serializers = ["good", "warming", "drifting", "compiling", "noop"]
    # drifting converges only after ~200 ms of samples: a budget it exhausts still improving
    config.timing = {**config.timing, "warmup_max_ns": 150_000_000}
    run_id = _run(config, store)
    timing = {
        (r["serializer"], r["operation"]): json.loads(r["timing"]) for r in store.results(run_id)
    }
    good, warming = timing[("good", "encode")], timing[("warming", "encode")]
    # interleaved: noop warms and measures in the same rounds as good (both flat), so with
    # every round shuffled, noop's slices fall between good's first and last ones
    first, last = good["slice_at_ns"][0], good["slice_at_ns"][-1]
    assert any(first < t < last for t in timing[("noop", "encode")]["slice_at_ns"])
    # warming settles after 12 samples: its warm-up outlasts them, then it is steady
    assert warming["warmup"]["steady"] is True
    assert warming["warmup"]["slices"] * 3 >= 12
    final = config.profile.final_code_window  # the fake is not a tiered JIT
    assert good["warmup"]["steady"] is True and good["warmup"]["slices"] == 2 * final
    # a JIT still compiling is not steady, even when its times are flat
    compiling = timing[("compiling", "encode")]["warmup"]
    assert compiling["steady"] is True and compiling["slices"] * 3 > 10
    # drifting never settles: flagged, and the report shows no number for it
    assert timing[("drifting", "encode")]["warmup"]["steady"] is False
    rows = {r.serializer: r for r in report.build(store, run_id).tables["android-users"]}
    assert "not-steady" in rows["drifting"].flags
    assert report.fmt_est(rows["drifting"].ops["encode"]).startswith("not steady")
    assert "not-steady" not in rows["warming"].flags


@pytest.mark.parametrize("warm_ahead", [False, True])
def test_the_next_block_gets_ready_while_one_measures(
    state: Path, warm_ahead: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With warm_ahead, a block is prepared and warmed up, one runner process at a time,
    while the block before it takes its slices; its faults and failed cells are stored all
    the same, and the run's results are those of blocks run one after the other."""
    monkeypatch.setenv("FAKE_DATASETS", "android-users,pb-vs-msgpack-test2")
    spans: dict[str, dict[str, tuple[float, float]]] = {}
    at_once: list[int] = []  # processes working at once while the block before measures
    working = [0]
    lane = schedule.Lanes.lane

    @contextlib.contextmanager
    def counted(self: schedule.Lanes) -> Any:
        with lane(self):
            working[0] += 1
            if self._limited:
                at_once.append(working[0])
            try:
                yield
            finally:
                working[0] -= 1

    def timed(name: str, method: Any) -> Any:
        def wrapper(self: schedule.Block) -> None:
            start = time.monotonic()
            try:
                method(self)
            finally:
                spans.setdefault(self.cells[0].dataset, {})[name] = (start, time.monotonic())

        return wrapper

    monkeypatch.setattr(schedule.Block, "ready", timed("ready", schedule.Block.ready))
    monkeypatch.setattr(schedule.Block, "measure", timed("measure", schedule.Block.measure))
    monkeypatch.setattr(schedule.Lanes, "lane", counted)
    store = Store(state / f"a{warm_ahead}.sqlite")
    config = _quick(datasets=["android-users", "pb-vs-msgpack-test2"], cell_timeout=3.0)
    config.serializers = ["good", "noop", "crash", "hang", "garbage"]
    config.timing = {**config.timing, "warm_ahead": warm_ahead, "tiebreak_processes": 0}
    run_id = _run(config, store)
    first, second = sorted(spans, key=lambda ds: spans[ds]["measure"][0])
    overlapped = spans[second]["ready"][0] < spans[first]["measure"][1]
    assert overlapped is warm_ahead
    if warm_ahead:  # the block that got ready ahead did so one process at a time
        assert spans[second]["ready"][0] >= spans[first]["ready"][1]
        assert at_once and max(at_once) == 1
    else:
        assert not at_once
    got = {
        (r["serializer"], r["dataset"], r["operation"], r["process"]): r
        for r in store.results(run_id)
    }
    assert len(got) == 5 * 2 * 2 * config.profile.processes
    for ds in ("android-users", "pb-vs-msgpack-test2"):
        assert got[("good", ds, "encode", 1)]["status"] == "ok"
        assert got[("crash", ds, "encode", 0)]["error_code"] == "crashed"
        assert got[("hang", ds, "decode", 1)]["error_code"] == "timeout"
        assert got[("garbage", ds, "encode", 0)]["error_code"] == "malformed_output"


def test_a_run_that_stops_ends_the_block_getting_ready(
    state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run stopped while the next block gets ready (an error, Ctrl-C): that block's
    processes are killed, none is started again, and nothing it met is saved."""
    monkeypatch.setenv("FAKE_DATASETS", "android-users,pb-vs-msgpack-test2")
    aheads: list[schedule.ReadyAhead] = []
    made = schedule.ReadyAhead.__init__

    def record(self: schedule.ReadyAhead, block: schedule.Block) -> None:
        made(self, block)
        aheads.append(self)

    def stop(self: schedule.Block) -> None:
        time.sleep(1.0)  # the next block is getting ready meanwhile
        raise KeyboardInterrupt

    monkeypatch.setattr(schedule.ReadyAhead, "__init__", record)
    monkeypatch.setattr(schedule.Block, "measure", stop)
    store = Store(state / "stop.sqlite")
    config = _quick(datasets=["android-users", "pb-vs-msgpack-test2"], cell_timeout=3.0)
    config.serializers = ["good", "crash", "hang"]
    with pytest.raises(KeyboardInterrupt):
        _run(config, store)
    (ahead,) = aheads
    assert not ahead._thread.is_alive()
    assert all(s.proc.poll() is not None for s in ahead.block.sessions.values())
    stored = {r["dataset"] for r in store.results(1) if r["status"] != "not_applicable"}
    assert ahead.block.cells[0].dataset not in stored


@pytest.mark.parametrize(("tiebreak", "jit"), [(0, None), (1, None), (1, "tiered")])
def test_a_tiebreak_process_confirms_the_fastest_or_the_cell_stays_flagged(
    state: Path, tiebreak: int, jit: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_PROCESS_COUNTER", str(state / "processes"))
    store = Store(state / "t.sqlite")
    config = _quick(datasets=["android-users"], serializers=["lucky", "good"])
    # enough slices per process for the binomial test to tell 1.5x apart (stats.agreeing)
    config.timing = {
        **config.timing,
        "processes": 2,
        "tiebreak_processes": tiebreak,
        "min_slices": 10,
    }
    warmed: list[tuple[str, int, bool]] = []  # (serializer, process, warm_only) warmed up
    warm_up = schedule.Block._warm_up

    def record(self: schedule.Block, st: schedule.OpState) -> None:
        if st.phase != "measure":
            warmed.append((st.cell.serializer, st.cell.process, st.cell.warm_only))
        warm_up(self, st)

    monkeypatch.setattr(schedule.Block, "_warm_up", record)
    run_id = _run(config, store, spec=RunnerSpec(**{**FAKE.__dict__, "jit": jit}))
    processes = {(r["serializer"], r["process"]) for r in store.results(run_id)}
    # lucky's two processes disagree (1.5x in the first): it gets a third process; under a
    # tiered JIT its neighbour good is in that process too, warmed up beside it (a JIT
    # compiles a cell with the neighbours it had) but not measured again: it is settled
    expected = {(s, p) for s in ("lucky", "good") for p in range(2)}
    assert processes == expected | ({("lucky", 2)} if tiebreak else set())
    third = {("lucky", 2, False)} if tiebreak else set()
    if tiebreak and jit == "tiered":
        third.add(("good", 2, True))
    assert {w for w in warmed if w[1] == 2} == third
    rows = {r.serializer: r for r in report.build(store, run_id).tables["android-users"]}
    lucky = rows["lucky"].ops["encode"]
    assert "processes-disagree" not in rows["good"].flags
    if tiebreak:  # the third process sides with the faster: that figure, with its range
        assert lucky.has_figure and lucky.processes_agreeing == 2
        assert lucky.headline_ns == pytest.approx(FAKE_BASE_NS, rel=0.01)
    else:
        assert "processes-disagree" in rows["lucky"].flags
        assert report.fmt_est(lucky).startswith("varies ")


def test_sampling_goes_on_until_the_fast_mode_is_confirmed(state: Path) -> None:
    """phasey's machine is slow (2x) 80% of the time: a fixed five slices would all be slow
    in a third of the processes; sequential sampling takes slices until the fast mode is
    confirmed and they are enough for the slow share the probe read."""
    store = Store(state / "p.sqlite")
    config = _quick(datasets=["android-users"], serializers=["phasey", "good"])
    # the fake's operations take 2 ms: the time budget alone would end them first
    config.timing = {**config.timing, "max_measure_ns": 10**12}
    run_id = _run(config, store, slow_share=0.8)
    timing = {
        (r["serializer"], r["operation"], r["process"]): json.loads(r["timing"])
        for r in store.results(run_id)
    }
    t = config.profile
    for (name, _, _), got in timing.items():
        assert got["confirmed"] is True
        fastest = min(got["wall_ns"]) / got["iterations"]
        assert fastest == pytest.approx(FAKE_BASE_NS, rel=0.01), name
    phasey = [v for k, v in timing.items() if k[0] == "phasey"]
    # the first operations to finish need log(0.02) / log(0.8) = 18 slices; the slow share
    # then learnt from good's flat slices lowers what later ones need
    assert max(len(v["slice_sizes"]) for v in phasey) >= 18
    assert all(len(v["slice_sizes"]) <= t.max_slices for v in phasey)
    rows = {r.serializer: r for r in report.build(store, run_id).tables["android-users"]}
    for op in ("encode", "decode"):
        est = rows["phasey"].ops[op]
        assert est.has_figure and est.headline_ns == pytest.approx(FAKE_BASE_NS, rel=0.01)


def test_a_budget_cuts_sampling_short_and_says_so(state: Path) -> None:
    store = Store(state / "b.sqlite")
    config = _quick(datasets=["android-users"], serializers=["phasey", "good"])
    config.budget_s = 0.001  # spent before the first slice
    run_id = _run(config, store, slow_share=0.8)
    t = config.profile
    results = [json.loads(r["timing"]) for r in store.results(run_id)]
    assert results and all(len(x["slice_sizes"]) == t.min_slices for x in results)
    assert not any(x["confirmed"] for x in results)  # too few slices for that slow share
    rows = {r.serializer: r for r in report.build(store, run_id).tables["android-users"]}
    assert "unconfirmed" in rows["phasey"].flags


def test_a_precision_target_raises_the_caps_and_is_recorded() -> None:
    config = _quick()
    config.with_precision(0.01)
    t = config.profile
    assert t.precision == 0.01
    assert (
        t.max_slices == PRECISION_CAP * orchestrate.RunConfig.for_scale("quick").profile.max_slices
    )


@pytest.mark.parametrize("jit", [None, "once", "tiered"])
def test_warm_up_follows_the_runtime(state: Path, jit: str | None) -> None:
    """Compiled once or ahead of time: the steady-state test alone; a tiered JIT also waits
    for its invocation counts (or the time they take)."""
    store = Store(state / f"j{jit}.sqlite")
    config = _quick(datasets=["android-users"], serializers=["good"])
    spec = RunnerSpec(**{**FAKE.__dict__, "jit": jit})
    run_id = _run(config, store, spec=spec)
    warm = [json.loads(r["timing"])["warmup"] for r in store.results(run_id)]
    t = config.profile
    for w in warm:
        assert w["steady"] is True
        if jit == "tiered":
            assert w["operations"] >= t.jit_min_invocations or w["spent_ns"] >= t.jit_warmup_min_ns
        else:
            assert w["slices"] == 2 * t.final_code_window


def test_unknown_names_list_valid_ones() -> None:
    with pytest.raises(datasets.UnknownName, match="android-users"):
        orchestrate.plan(orchestrate.RunConfig(datasets=["nope"]), {"python": PYTHON})
    with pytest.raises(datasets.UnknownName, match="valid runners: python"):
        orchestrate.plan(orchestrate.RunConfig(runners=["cobol"]), {"python": PYTHON})
    with pytest.raises(datasets.UnknownName, match="python/msgpack"):
        orchestrate.plan(orchestrate.RunConfig(serializers=["nope"]), {"python": PYTHON})
    with pytest.raises(datasets.UnknownName, match="encode\\+zlib"):
        orchestrate.plan(orchestrate.RunConfig(operations=["squash"]), {"python": PYTHON})


def _rows(db: Path) -> list[tuple]:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute(
                "SELECT runner, serializer, dataset, operation, process, status, timing"
                " FROM results ORDER BY id"
            ).fetchall()
    except sqlite3.OperationalError:  # the run has created the file but not its tables yet
        return []


def test_sigkill_loses_nothing_and_resume_finishes(state: Path) -> None:
    db = state / "kill.sqlite"
    cmd = [
        sys.executable,
        "-m",
        "serbench",
        "run",
        "--runner",
        "python",
        "--dataset",
        "android-users",
        "--dataset",
        "one-mb-dict",
        "--quick",
        "--db",
        str(db),
    ]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if db.exists() and len(_rows(db)) >= 6:
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _rows(db)
    assert len(before) >= 6, "the run finished no cell before it was killed"
    subprocess.run(
        [sys.executable, "-m", "serbench", "run", "--resume", "--db", str(db)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=300,
    )
    after = _rows(db)
    keys = [r[:5] for r in after]
    assert len(keys) == len(set(keys)), "a resumed cell was stored twice"
    assert set(before) <= set(after), "a result finished before the kill was lost or changed"
    store = Store(db)
    plan = orchestrate.plan(
        _quick(runners=["python"], datasets=["android-users", "one-mb-dict"]),
        {"python": PYTHON},
    )
    assert_resumed_run_complete(store.done_keys(1), plan, ["encode", "decode"])
    assert store.run(1)["status"] == "finished"


def test_profile_is_independent_of_the_data_scale() -> None:
    from serbench.timing import QUICK, STANDARD

    assert orchestrate.RunConfig.for_scale("quick").profile == QUICK
    config = orchestrate.RunConfig.for_scale("quick", profile="standard")
    assert config.scale == "quick" and config.profile == STANDARD


def test_a_block_fits_in_the_memory_the_machine_has() -> None:
    """Every runner's processes are side by side in a block: a large dataset's cells are
    split so that all of them together stay within MEMORY_SHARE of the memory available."""
    import random

    from serbench.schedule import Cell
    from serbench.timing import HELD_PER_CELL, MEMORY_SHARE, STANDARD

    size = 10 << 20
    cells = [
        Cell(runner, f"s{k}", "big", process)
        for runner in ("a", "b")
        for process in range(3)
        for k in range(10)
    ]
    descriptors = {"big": {"expanded_bytes": size}}
    memory = 2_400 << 20

    def split(available: int | None) -> list[list[Cell]]:
        return orchestrate.blocks(cells, descriptors, STANDARD, random.Random(0), available)

    assert len(split(None)) == 2  # the runner's own cap alone: 8 cells per process
    fitted = split(memory)
    assert len(fitted) == 5
    assert sorted((c for block in fitted for c in block), key=str) == sorted(cells, key=str)
    for block in fitted:
        assert {c.slot for c in block} == {c.slot for c in cells}  # side by side
        assert len(block) * HELD_PER_CELL * size <= MEMORY_SHARE * memory


def test_a_block_gets_ready_ahead_in_a_share_of_the_memory_left_beside_one_measuring() -> None:
    """The next block may get ready while one measures when its expected bytes fit in
    AHEAD_MEMORY_SHARE of the memory available then (the measuring block's processes
    already hold theirs); a machine that cannot tell runs one block at a time."""
    from serbench.schedule import Cell
    from serbench.timing import AHEAD_MEMORY_SHARE

    size = 2 << 20
    block = [
        Cell(runner, f"s{k}", "big", p) for runner in ("a", "b") for p in (0, 1) for k in range(5)
    ]
    held = {"a": 8.0, "b": 48.0}
    expected = 2 * 5 * (8 + 48) * size
    descriptors = {"big": {"expanded_bytes": size}}
    enough = int(expected / AHEAD_MEMORY_SHARE) + 1
    assert orchestrate.fits_beside(block, descriptors, enough, held)
    assert not orchestrate.fits_beside(block, descriptors, enough - (1 << 20), held)
    assert not orchestrate.fits_beside(block, descriptors, None, held)


def test_a_runner_that_holds_more_per_cell_is_spread_over_more_blocks() -> None:
    """runner.json "held_per_cell": a runner whose processes hold 64x a cell (GNUstep's
    objects) gets fewer cells per block, so the block as a whole still fits; a light
    runner alone is not split."""
    import random

    from serbench.schedule import Cell
    from serbench.timing import MEMORY_SHARE, STANDARD

    size = 4 << 20
    cells = [
        Cell(runner, f"s{k}", "big", process)
        for runner in ("light", "heavy")
        for process in range(3)
        for k in range(10)
    ]
    held = {"light": 2.0, "heavy": 64.0}
    memory = 4_000 << 20

    def split(runners: set[str]) -> list[list[Cell]]:
        chosen = [c for c in cells if c.runner in runners]
        return orchestrate.blocks(
            chosen, {"big": {"expanded_bytes": size}}, STANDARD, random.Random(0), memory, held
        )

    assert len(split({"light"})) == 1
    both = split({"light", "heavy"})
    assert len(both) > 1
    assert sorted((c for block in both for c in block), key=str) == sorted(cells, key=str)
    for block in both:
        assert sum(held[c.runner] * size for c in block) <= MEMORY_SHARE * memory


@pytest.mark.parametrize("stretched", [0, 2])
def test_a_block_measured_in_a_slow_stretch_is_measured_again(
    state: Path, stretched: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """log-records' block runs 1.5x slow in its two processes (a slow stretch of the machine,
    every cell alike): its reference cells read it against android-users' block, and the
    block is measured again in fresh processes whose results replace the stretched ones."""
    monkeypatch.setenv("FAKE_DATASETS", "android-users,log-records")
    monkeypatch.setenv("FAKE_STRETCH", f"log-records:{state / 'stretch'}:{stretched}")
    store = Store(state / "s.sqlite")
    config = _quick(datasets=["android-users", "log-records"], serializers=["good"])
    config.timing = {**config.timing, "tiebreak_processes": 0}
    run_id = _run(config, store)
    blocks = json.loads(store.run(run_id)["environment"])["blocks"]
    first = {b["datasets"][0]: b for b in blocks if not b.get("again")}
    again = [b for b in blocks if b.get("again")]
    assert first["android-users"]["stretch"] == pytest.approx(1.0, rel=0.02)
    assert not first["android-users"]["measured_again"]
    if stretched:
        assert first["log-records"]["stretch"] == pytest.approx(1.5, rel=0.02)
        assert first["log-records"]["measured_again"]
        assert [b["datasets"] for b in again] == [["log-records"]]
        assert again[0]["stretch"] == pytest.approx(1.0, rel=0.02)
    else:
        assert first["log-records"]["stretch"] == pytest.approx(1.0, rel=0.02)
        assert not first["log-records"]["measured_again"] and not again
    # the reference cells are timed, never stored; the stretched figures are replaced
    rows = store.results(run_id)
    assert {(r["serializer"], r["dataset"], r["process"]) for r in rows} == {
        ("good", d, p) for d in ("android-users", "log-records") for p in range(2)
    }
    built = report.build(store, run_id)
    good = {r.serializer: r for r in built.tables["log-records"]}["good"].ops["encode"]
    assert good.headline_ns == pytest.approx(FAKE_BASE_NS, rel=0.01)
    # the report's header says which block was measured again, with both readings
    said = dict(agreement_facts(built)).get("measured again after a slow stretch")
    assert (said or "").startswith("log-records 1.50x, again 1.00x" if stretched else "")
    assert (said is not None) == bool(stretched)


@pytest.mark.parametrize("stretched", [0, 2])
def test_a_datasets_tie_break_joins_a_later_block_and_is_decided_again_after_a_stretch(
    state: Path, stretched: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lucky's processes disagree in the first dataset (its first process runs 1.5x): that
    dataset's tie-break process joins the third dataset's block, the first not yet getting
    ready when the first is done, instead of a tail of tie-break blocks after the rounds.
    When the first dataset's block was in a slow stretch, it is measured again and its
    tie-break, decided on the stretched figures, is dropped and decided again."""
    names = ["android-users", "log-records", "pb-vs-msgpack-test1"]
    monkeypatch.setenv("FAKE_DATASETS", ",".join(names))
    monkeypatch.setenv("FAKE_PROCESS_COUNTER", str(state / "processes"))
    monkeypatch.setenv("FAKE_STRETCH", f"{names[0]}:{state / 'stretch'}:{stretched}")
    plan_blocks = orchestrate.blocks

    def in_order(*args: Any, **kwargs: Any) -> list[list[schedule.Cell]]:
        return sorted(plan_blocks(*args, **kwargs), key=lambda b: names.index(b[0].dataset))

    monkeypatch.setattr(orchestrate, "blocks", in_order)
    measured: list[set[tuple[str, str, int]]] = []
    measure = schedule.Block.measure

    def record(self: schedule.Block) -> None:
        measured.append(
            {(c.serializer, c.dataset, c.process) for c in self.cells if not c.reference}
        )
        measure(self)

    monkeypatch.setattr(schedule.Block, "measure", record)
    store = Store(state / "j.sqlite")
    config = _quick(datasets=names, serializers=["lucky", "good"])
    config.timing = {**config.timing, "min_slices": 10}  # enough to tell 1.5x apart
    run_id = _run(config, store)
    rounds = [{d for _, d, p in b if p < 2} for b in measured]
    tie_breaks = [{d for _, d, p in b if p == 2} for b in measured]
    assert rounds[:3] == [{n} for n in names]
    assert tie_breaks[2] == {names[0]}  # beside the third dataset's rounds
    assert all(r for r in rounds[: len(rounds) - 1 if stretched else None])  # no tail
    stored = {(r["serializer"], r["dataset"], r["process"]) for r in store.results(run_id)}
    if stretched:  # measured again, at 1.0 both: settled, no tie-break left
        assert rounds[3:] == [{names[0]}]
        assert ("lucky", names[0], 2) not in stored
    else:
        assert ("lucky", names[0], 2) in stored
    assert {p for _, d, p in stored if d != names[0]} == {0, 1}
