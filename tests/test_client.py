"""RunnerClient: one typed method per `serve` command, an `error` reply raised as
CommandError, every request valid against the protocol's schema."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from serbench import protocol
from serbench.client import (
    CommandError,
    Dataset,
    RunnerClient,
    prepare_request,
    sample_request,
    transport_request,
)
from serbench.runners import RunnerSpec
from serbench.session import RunnerSession

FIXTURES = Path(__file__).parent / "fixtures"
FAKE = RunnerSpec(
    name="fake",
    language="python",
    directory=FIXTURES,
    command=[sys.executable, str(FIXTURES / "fake_runner.py")],
)
DATA = Dataset(name="android-users", kind="builtin", data="/nowhere/android-users.json")


def test_requests_follow_the_schema() -> None:
    prepare = prepare_request("c", "good", DATA, ["encode"], decode_from="/tmp/x.bin")
    assert protocol.problem("prepare", prepare) is None
    assert prepare["dump_path"] is None and prepare["decode_from"] == "/tmp/x.bin"
    assert protocol.problem("sample", sample_request("c", "decode", 8, 3)) is None
    request = transport_request("send", "good", DATA, 4000, 5, 2, 30.0)
    assert protocol.problem("transport_request", request) is None
    assert protocol.problem("prepare", {**prepare, "operations": "encode"}) is not None


def test_every_command_returns_its_typed_reply() -> None:
    with RunnerSession(FAKE, 30) as session:
        runner = RunnerClient(session)
        prepared = runner.prepare(prepare_request("c", "good", DATA, ["encode", "decode"]))
        assert prepared["status"] == "ok" and prepared["sizes"] == {"encoded": 10}
        samples = runner.sample("c", "encode", 4, 3)
        assert samples["iterations"] == 4 and len(samples["wall_ns"]) == 3
        assert runner.peak_alloc("c", "encode")["bytes"] == 64
        assert runner.release("c")["cell"] == "c"
        with pytest.raises(CommandError) as raised:
            runner.sample("c", "encode", 1, 1)  # released
        assert raised.value.code == "unknown_cell" and "no cell c" in str(raised.value)
        runner.quit()
        assert session.proc.wait(timeout=10) == 0
