"""`serbench compare`: matching the cells of two runs, the test, the verdicts, the CI gate and
named baselines, on synthetic runs whose truth is known."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from serbench import baseline, compare, report, stats
from serbench.cli import app
from serbench.store import CellKey, Store

CELLS = [f"s{i}" for i in range(12)]  # serializers of the synthetic runner "syn"


def _timing(
    rng: np.random.Generator, ns: float, steady: bool = True, process_sd: float = 0.01
) -> dict[str, Any]:
    """One process: 8 slices of 3 samples around ns (a per-process offset, phase noise)."""
    process = ns * rng.lognormal(0, process_sd)
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
    datasets: dict[str, float] | None = None,
    process_sd: float = 0.01,
) -> int:
    """A stored run of runner `syn`: encode and decode of every cell, on android-users or
    on each dataset of ``datasets`` with every time of that dataset scaled by its factor."""
    rng = np.random.default_rng(seed)
    run_id = store.new_run({"scale": "quick", "operations": ["encode", "decode"]}, {})
    sers = [{"name": s, "format": "x", "library": "lib", "labels": []} for s in times]
    store.save_serializers(run_id, "syn", {"serializers": sers})
    for dataset, factor in (datasets or {"android-users": 1.0}).items():
        for name, ns in times.items():
            for op in ("encode", "decode"):
                for p in range(processes):
                    result: dict[str, Any] = {"status": "ok", "check": {"ok": name not in ng}}
                    if name in ng:
                        result = {"status": "check_failed", "check": {"ok": False, "detail": "x"}}
                    else:
                        result |= {"messages": 1, "sizes": {"encoded": 100}}
                        result["timing"] = _timing(
                            rng, ns * factor, name not in unsteady, process_sd
                        )
                    store.save_result(run_id, CellKey("syn", name, dataset, op, p), result)
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


def test_a_block_off_alike_is_widened_alone(store: Store) -> None:
    """Every cell of one runner on one dataset 12% off in run B (the machine's phase moved
    while that block ran): that block's intervals widen and nothing in it is called
    different, while a real change in the other block is still found."""
    times = {s: 1000.0 * (i + 1) for i, s in enumerate(CELLS)}
    both = {"android-users": 1.0, "click-maps": 1.0}
    a = synthetic_run(store, 1, times, datasets=both)
    b = synthetic_run(
        store, 2, times | {"s5": 6000.0 * 1.3}, datasets={"android-users": 1.0, "click-maps": 1.12}
    )
    c = compare.compare(report.build(store, a), report.build(store, b))
    assert c.block_inflation[("syn", "click-maps")] > 2
    assert c.block_inflation[("syn", "android-users")] < 1.5
    called = {(x.dataset, x.cell, x.operation): x.verdict for x in c.cells}
    assert called[("android-users", "syn/s5", "encode")] == "slower"
    shifted = [v for (d, cell, _), v in called.items() if d == "click-maps" and cell != "syn/s5"]
    assert shifted.count("no difference") >= len(shifted) - 1


def test_the_prior_is_fitted_from_the_cells_variances() -> None:
    """Smyth's moment fit recovers d0 and s0^2 from variances drawn from its own model; one
    shared variance gives d0 = inf; too few cells give no prior."""
    rng = np.random.default_rng(3)
    df = np.full(4000, 2)
    sigma2 = 0.01 * 6 / rng.chisquare(6, df.size)  # scaled inverse chi-square, d0 = 6
    s2 = sigma2 * rng.chisquare(df) / df
    prior = stats.fit_prior(list(s2), list(df))
    assert prior is not None
    assert 4 < prior.df < 9 and 0.008 < prior.var < 0.012
    shared = stats.fit_prior(list(0.01 * rng.chisquare(df) / df), list(df))
    assert shared is not None and shared.df > 50 and 0.009 < shared.var < 0.011
    assert stats.fit_prior([0.01] * 3, [2] * 3) is None


def test_intervals_know_how_far_the_runners_fresh_processes_land(store: Store) -> None:
    """Two processes per cell that land 5% apart (SD) from one fresh process to the next:
    the bootstrap over two processes cannot see that, and another identical run's headline
    fell outside its interval in about half the pairs; widened by the runner's prior, an
    interval holds it about as often as an honest 95% interval does (83%: both vary)."""
    times = {s: 1000.0 * (i + 1) for i, s in enumerate(CELLS)}
    runs = [
        report.build(store, synthetic_run(store, seed, times, processes=2, process_sd=0.05))
        for seed in range(6)
    ]
    assert all(rep.priors["syn"] is not None for rep in runs)
    ests = [
        {(r.name, op): e for r in rep.tables["android-users"] for op, e in r.ops.items()}
        for rep in runs
    ]
    hits = [
        a[k].ci_low_ns <= b[k].headline_ns <= a[k].ci_high_ns
        for a in ests
        for b in ests
        if a is not b
        for k in a
    ]
    assert 0.75 <= np.mean(hits) <= 0.98, np.mean(hits)
    one = ests[0][("syn/s0", "encode")]
    assert one.ci_low_ns < one.headline_ns * 0.97 and one.ci_high_ns > one.headline_ns * 1.03


def test_without_a_prior_the_bootstrap_interval_stands() -> None:
    """Too few cells to fit a prior, or one process: the interval is the bootstrap's."""
    rng = np.random.default_rng(1)
    e = stats.estimate([_timing(rng, 1000.0), _timing(rng, 1000.0)])
    assert e is not None
    assert stats.process_interval(e, None) == e
    single = stats.estimate([_timing(rng, 1000.0)])
    assert single is not None
    assert stats.process_interval(single, stats.Prior(4.0, 0.01)) == single
    wide = stats.process_interval(e, stats.Prior(float("inf"), 0.01))
    half = 1.959963984540054 * (0.01 / 2) ** 0.5
    assert wide.ci_high_ns == pytest.approx(e.headline_ns * np.exp(half))


def test_a_t_value_made_normal_keeps_its_p_to_the_far_tail() -> None:
    """_z turns a t value into the normal deviate of the same one-sided p: equal to t when
    df is infinite, smaller than t for finite df (a heavier tail, a larger p), and infinite
    (not an error) once p underflows to 0."""

    def cell(ratio: float, sigma: float, df: float) -> compare.CellComparison:
        return compare.CellComparison(
            "d", "r/s", "encode", None, None, "", ratio=ratio, sigma=sigma, df=df
        )

    assert compare._z(cell(np.exp(2.0), 1.0, float("inf"))) == pytest.approx(2.0)
    # t = 2.0 with 5 df: one-sided p 0.0510, the normal deviate of that p is 1.635
    assert compare._z(cell(np.exp(2.0), 1.0, 5.0)) == pytest.approx(1.635, abs=1e-3)
    assert compare._z(cell(np.exp(40.0), 1.0, 1e4)) == float("inf")


def test_the_nulls_tails_are_fitted_to_the_cells() -> None:
    """fit_tails finds heavy tails where |z| has them, about the normal where it does not
    and the normal (inf) where too few cells say; a cell far out is then read on the heavier tail: a
    larger p, a wider interval, the same verdict rule."""
    rng = np.random.default_rng(7)
    heavy = compare.fit_tails(list(np.abs(rng.standard_t(6, 3000))))
    assert 4 < heavy < 9
    assert compare.fit_tails(list(np.abs(rng.standard_normal(3000)))) > 50  # about normal
    too_few = compare.MIN_CELLS_FOR_TAILS - 1
    assert compare.fit_tails(list(np.abs(rng.standard_t(3, too_few)))) == float("inf")
    assert compare.fit_tails(list(np.abs(rng.standard_t(3, 40)))) < 10  # a small comparison

    def cell() -> compare.CellComparison:
        return compare.CellComparison(
            "d", "r/s", "encode", None, None, "", ratio=np.exp(0.2), sigma=0.05, df=float("inf")
        )

    normal, tails = cell(), cell()
    compare._decide(normal, 1.0)
    compare._decide(tails, 1.0, heavy)
    assert normal.p == pytest.approx(2 * 3.167e-5, rel=1e-3)  # z = 4
    assert tails.p > 20 * normal.p
    assert tails.low < normal.low and tails.high > normal.high  # type: ignore[operator]
    assert normal.verdict == tails.verdict == "slower"


def test_the_gate_decides_once_over_all_cells() -> None:
    """A cell 'slower' at 95% on its own is no regression when its q-value (adjusted for
    all tested cells) is above ALPHA."""
    c = compare.Comparison("A", "B")
    lone = compare.CellComparison("d", "r/x", "encode", None, None, "slower", ratio=1.2, p=0.01)
    lone.q = 0.2
    sure = compare.CellComparison("d", "r/y", "encode", None, None, "slower", ratio=1.2, p=1e-6)
    sure.q = 0.001
    c.cells = [lone, sure]
    assert c.regressions(5) == [sure]


def test_version_rows_line_up_with_todays_row(store: Store) -> None:
    """`lib@version` against `lib` in one run: only libraries with both rows, the older
    version as A, and the run's other cells' priors behind the test."""
    times = {s: 1000.0 for s in CELLS} | {"kryo": 1000.0, "kryo@3.0.3": 1500.0, "old@1": 900.0}
    run = synthetic_run(store, 1, times)
    c = compare.versions(report.build(store, run))
    assert {x.cell for x in c.cells} == {"syn/kryo"}
    assert {x.verdict for x in c.cells} == {"faster"}
    assert all(x.ratio == pytest.approx(1 / 1.5, rel=0.05) for x in c.cells)
    assert "syn/kryo@3.0.3" in c.a_label
    assert store.path is not None
    shown = json.loads(_cli(store.path, "compare", str(run), "--versions", "-f", "json").stdout)
    assert {x["cell"] for x in shown["cells"]} == {"syn/kryo"}


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
