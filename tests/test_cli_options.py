"""Numeric options are checked when parsed: a bad value is click's one-line usage error
(exit 2, naming the option) before the command's body runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from serbench import cli

BAD = [
    (["run", "--timeout", "-5"], "--timeout"),
    (["run", "--timeout", "0"], "--timeout"),
    (["run", "--processes", "0"], "--processes"),
    (["run", "--sample", "0"], "--sample"),
    (["run", "--resume", "--run", "0"], "--run"),
    (["noise", "--seconds", "0"], "--seconds"),
    (["transport", "--repetitions", "0"], "--repetitions"),
    (["compare", "x", "y", "--fail-above", "-1"], "--fail-above"),
    (["reference", "S1", "--run", "0"], "--run"),
    (["datasets", "add", "x", "x.json", "--sample", "0"], "--sample"),
    (["run", "--budget", "0"], "--budget"),
    (["run", "--budget", "ten minutes"], "--budget"),
    (["run", "--precision", "0%"], "--precision"),
    (["run", "--precision", "70%"], "--precision"),
    (["report", "0"], "'run'"),
    (["baseline", "save", "main", "0"], "'run'"),
]


@pytest.fixture
def no_body(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every command body fails the test at its first step: no store, runner or timing."""

    def body_ran(*_: Any, **__: Any) -> None:
        raise AssertionError("the command's body ran")

    monkeypatch.setenv("SERBENCH_DB", str(tmp_path / "results.sqlite"))
    monkeypatch.setattr(cli, "_store", body_ran)
    monkeypatch.setattr(cli, "_register", body_ran)
    monkeypatch.setattr(cli.transport, "run", body_ran)
    monkeypatch.setattr(cli.crosscheck, "check", body_ran)
    monkeypatch.setattr(cli.runs, "execute", body_ran)
    monkeypatch.setattr(cli.noise, "measure", body_ran)
    monkeypatch.setattr(cli.runners, "discover", body_ran)


@pytest.mark.parametrize(("args", "option"), BAD, ids=[" ".join(a) for a, _ in BAD])
@pytest.mark.usefixtures("no_body")
def test_a_bad_number_is_a_usage_error_naming_the_option(args: list[str], option: str) -> None:
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 2, result.output
    assert "Invalid value" in result.output and option in result.output, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--timeout", "0.5"],
        ["noise", "--seconds", "0.1"],
        ["compare", "x", "--fail-above", "0"],
    ],
)
@pytest.mark.usefixtures("no_body")
def test_a_good_number_reaches_the_command(args: list[str]) -> None:
    """The ranges' edges are open or closed as meant: these values get past parsing."""
    result = CliRunner().invoke(cli.app, args)
    assert isinstance(result.exception, AssertionError), result.output
    assert "the command's body ran" in str(result.exception)


@pytest.mark.parametrize(
    ("text", "seconds"), [("90s", 90.0), ("10m", 600.0), ("1.5h", 5400.0), ("45", 45.0)]
)
def test_a_budget_reads_as_seconds(text: str, seconds: float) -> None:
    assert cli._duration(text) == seconds


@pytest.mark.parametrize(("text", "fraction"), [("2%", 0.02), ("0.02", 0.02), ("0.5%", 0.005)])
def test_a_precision_reads_as_a_fraction(text: str, fraction: float) -> None:
    assert cli._fraction(text) == pytest.approx(fraction)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--quick", "--scale", "full"], "--quick is --scale quick"),
        (["run", "--scale", "huge"], "unknown scale 'huge'"),
        (["run", "--profile", "slow"], "unknown profile 'slow'"),
        (["run", "--measure", "cycles"], "unknown measure 'cycles'"),
    ],
)
@pytest.mark.usefixtures("no_body")
def test_options_that_make_no_run_fail_before_it_starts(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())


def test_a_probe_runner_that_cannot_time_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`serbench noise` (and a run's probe, which then goes on without it) when the probe
    runner cannot time its operation: ProbeFailed naming the runner, not a traceback."""
    from serbench import noise

    monkeypatch.setattr(noise, "PROBE_RUNNER", "no-such-runner")
    with pytest.raises(noise.ProbeFailed, match="no-such-runner"):
        noise.measure(seconds=0.1, cost_of=[])
    result = CliRunner().invoke(cli.app, ["noise", "--seconds", "0.1"])
    assert result.exit_code == 2
    assert "no-such-runner" in result.output and "Traceback" not in result.output
