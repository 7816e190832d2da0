"""`serbench calibrate`: serbench against a runner's native harness on one tiny cell."""

from __future__ import annotations

import json

import pytest
from conftest import runner_or_skip
from typer.testing import CliRunner

from serbench import calibrate, cli


def test_go_against_testing_b() -> None:
    runner_or_skip("go")
    args = ["calibrate", "-r", "go", "-s", "msgpack", "-d", "android-users", "-o", "encode"]
    args += ["--rounds", "1", "--samples", "3", "--sample-ms", "2", "--format", "json"]
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["native_harness"] == "testing.B"
    assert not out["failures"]
    [cell] = out["cells"]
    assert cell["samples"]["serbench"] == 3 and cell["samples"]["native"] >= 3
    for clock in ("wall", "cpu"):  # both tools read the thread's CPU clock
        for estimate in cell["estimates"][clock].values():
            assert estimate["serbench"] > 0 and estimate["native"] > 0
            assert estimate["ratio"] == pytest.approx(estimate["serbench"] / estimate["native"])
            assert len(estimate["rounds"]) == 1


def test_harness_lines_are_checked() -> None:
    got = calibrate.parse_native(
        'goos: linux\n{"wall_ns": 2000, "cpu_ns": null}\n{"wall_ns": 900, "cpu_ns": 800, '
        '"iterations": 3}\n',
        2,
        "h",
    )
    assert got.wall == [1000, 300] and got.cpu is None
    with pytest.raises(calibrate.CalibrateError, match="line 1"):
        calibrate.parse_native('{"cpu_ns": 1}', 2, "h")
    with pytest.raises(calibrate.CalibrateError, match="no sample line"):
        calibrate.parse_native("PASS\n", 2, "h")


def test_cells_by_size_from_what_the_runner_has() -> None:
    def serializer(name: str, fmt: str, *datasets: str) -> dict:
        return {
            "name": name,
            "format": fmt,
            "datasets": {d: {"applicable": True} for d in datasets},
        }

    description = {
        "runner": "r",
        "serializers": [
            serializer("noop", "none", "android-users", "log-records", "one-mb-dict"),
            serializer("js", "json", "android-users", "log-records", "one-mb-dict"),
            serializer("pb", "protobuf", "log-records"),
        ],
    }
    cells = calibrate.pick_cells(description)
    assert [(c.size, c.serializer, c.dataset) for c in cells] == [
        ("small", "js", "android-users"),
        ("medium", "pb", "log-records"),
        ("large", "js", "one-mb-dict"),
    ]
    [cell] = calibrate.pick_cells(description, "pb", "log-records", "encode")
    assert (cell.serializer, cell.operation) == ("pb", "encode")
    with pytest.raises(calibrate.CalibrateError, match="no cell for pb"):
        calibrate.pick_cells(description, "pb", "android-users")


def _calibration(serbench_ns: list[float], native_ns: list[float]) -> calibrate.Calibration:
    cell = calibrate.CellResult(calibrate.Cell("small", "s", "android-users", "encode"))
    cell.rounds.append(
        {
            "serbench": calibrate.Samples(1, serbench_ns, serbench_ns),
            "native": calibrate.Samples(1, native_ns, native_ns),
        }
    )
    return calibrate.Calibration("r", "h", "quick", (0.0, 0.0, 0.0), cells=[cell])


def test_judged_on_the_headline_not_on_the_plain_median() -> None:
    # serbench's samples fell in a slow phase more often than the harness's: the plain
    # medians differ 2x, the fast modes (the headline) agree within 1%.
    slow_more = _calibration([100.0] * 4 + [200.0] * 6, [101.0] * 8 + [200.0] * 2)
    out = slow_more.as_dict()
    assert out["judged"] == "fast-edge median"
    assert out["largest_deviation_by_estimator"]["wall"]["median"] > 0.9
    assert out["largest_deviation"]["wall"] < 0.05
    assert out["accurate"] == {"wall": True, "cpu": True}
    # The fast modes themselves 10% apart: not accurate.
    apart = _calibration([110.0] * 10, [100.0] * 10).as_dict()
    assert apart["accurate"] == {"wall": False, "cpu": False}
