"""Runner builds get the datasets' folders; registering a user dataset rebuilds the runners
whose build generates typed models (runner.json "typed_model"), and a failed rebuild leaves
the dataset registered for the others."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from serbench import builds, cli, runners, userdata
from serbench.paths import DATASETS_DIR
from serbench.userdata.registry import registry_dir

FIXTURES = Path(__file__).parent / "fixtures"
FAKE = [sys.executable, str(FIXTURES / "fake_runner.py")]
DISCOVER = runners.discover  # the fixture below replaces it


def _runner(root: Path, name: str, typed: bool) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    manifest = {"name": name, "command": FAKE, "build": [[*FAKE, "build"]]}
    if typed:
        manifest["typed_model"] = True
    (folder / "runner.json").write_text(json.dumps(manifest))
    return folder


def _set_build(folder: Path, command: list[str]) -> None:
    """The runner's build: this one command."""
    manifest = folder / "runner.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "build": [command]}))


def _builds(folder: Path) -> list[dict]:
    marker = folder / "builds.jsonl"
    return [json.loads(line) for line in marker.read_text().splitlines()] if marker.exists() else []


@pytest.fixture
def fake_runners(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A typed-model runner and a plain one, the only runners found; a fresh state folder."""
    monkeypatch.setenv("SERBENCH_HOME", str(tmp_path / "home"))
    root = tmp_path / "runners"
    folders = {"typed": _runner(root, "typed", True), "plain": _runner(root, "plain", False)}
    found = DISCOVER(root)
    monkeypatch.setattr(runners, "discover", lambda root=root: found)
    return folders


def test_runner_json_declares_a_typed_model(fake_runners: dict[str, Path]) -> None:
    specs = runners.discover()
    assert specs["typed"].typed_model and not specs["plain"].typed_model
    assert [s.name for s in builds.typed_model()] == ["typed"]
    bad = fake_runners["plain"] / "runner.json"
    bad.write_text(json.dumps({**json.loads(bad.read_text()), "typed_model": "yes"}))
    with pytest.raises(ValueError, match='"typed_model" must be true or false'):
        DISCOVER(bad.parent.parent)


def test_every_build_sees_the_datasets_folders(fake_runners: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli.app, ["build"])
    assert result.exit_code == 0, result.output
    for name, folder in fake_runners.items():
        (seen,) = _builds(folder)
        assert seen["SERBENCH_DATASETS_DIR"] == str(DATASETS_DIR.resolve())
        assert seen["SERBENCH_USER_DATASETS_DIR"] == str(registry_dir().resolve())
        assert seen["user_datasets"] == []
        assert f"built {name} in " in result.output


def test_two_builds_run_at_once_and_a_failed_one_is_reported(
    fake_runners: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each build waits for the other to have started: built one after the other, the first
    gives up after 10 s and fails. A third runner's failing build is reported beside them."""
    root = fake_runners["plain"].parent
    wait = (
        "import pathlib, sys, time\n"
        "pathlib.Path(sys.argv[1]).touch()\n"
        "deadline = time.monotonic() + 10\n"
        "while not pathlib.Path(sys.argv[2]).exists():\n"
        "    if time.monotonic() > deadline: sys.exit('the other build never started')\n"
        "    time.sleep(0.05)\n"
    )
    for me, other in (("typed", "plain"), ("plain", "typed")):
        started = [str(root / f"{me}.started"), str(root / f"{other}.started")]
        _set_build(fake_runners[me], [sys.executable, "-c", wait, *started])
    broken = _runner(root, "broken", False)
    _set_build(broken, [sys.executable, "-c", "raise SystemExit('no compiler')"])
    found = DISCOVER(root)
    monkeypatch.setattr(runners, "discover", lambda root=root: found)
    result = CliRunner().invoke(cli.app, ["build"])
    assert result.exit_code == 1, result.output
    assert "built typed in " in result.output and "built plain in " in result.output
    assert "build failed broken" in result.output and "no compiler" in result.output


def test_registering_rebuilds_typed_model_runners_only(fake_runners: dict[str, Path]) -> None:
    people = FIXTURES / "userdata" / "people.csv"
    result = CliRunner().invoke(cli.app, ["datasets", "add", "people", str(people)])
    assert result.exit_code == 0, result.output
    assert [b["user_datasets"] for b in _builds(fake_runners["typed"])] == [["people"]]
    assert _builds(fake_runners["plain"]) == []
    assert "built typed in " in result.output
    assert "(typed model for user dataset people)" in result.output


def test_a_failed_typed_build_names_runner_and_dataset_and_keeps_it(
    fake_runners: dict[str, Path],
) -> None:
    events = FIXTURES / "userdata" / "events.jsonl"
    result = CliRunner().invoke(cli.app, ["datasets", "add", "unbuildable", str(events)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "typed-model build failed runner typed, user dataset unbuildable" in text
    assert "no typed model for its types" in text  # the build's own words
    assert "`serbench build -r typed`" in text
    assert userdata.is_registered("unbuildable")
    assert Path(userdata.get("unbuildable").descriptor()["data"]).is_file()


def test_run_with_data_rebuilds_when_it_registers(
    fake_runners: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`run --data` registers the file (rebuilding the run's typed-model runners) before it
    runs, and neither registers nor rebuilds again while the file is unchanged."""

    class Ran(Exception):
        pass

    def execute(*_: object, **__: object) -> int:
        raise Ran

    monkeypatch.setattr(cli.runs, "execute", execute)
    people = FIXTURES / "userdata" / "people.csv"
    for _ in range(2):
        result = CliRunner().invoke(cli.app, ["run", "--data", str(people), "-r", "typed"])
        assert isinstance(result.exception, Ran), result.output
    assert [b["user_datasets"] for b in _builds(fake_runners["typed"])] == [["people"]]
    assert "user dataset people is up to date" in result.output


def test_registering_for_named_runners_rebuilds_only_those(
    fake_runners: dict[str, Path],
) -> None:
    people = FIXTURES / "userdata" / "people.csv"
    result = CliRunner().invoke(cli.app, ["datasets", "add", "people", str(people), "-r", "plain"])
    assert result.exit_code == 0, result.output
    assert _builds(fake_runners["typed"]) == [] and _builds(fake_runners["plain"]) == []
    result = CliRunner().invoke(cli.app, ["datasets", "add", "other", str(people), "-r", "nope"])
    assert result.exit_code == 2 and "unknown runner 'nope'" in result.output
