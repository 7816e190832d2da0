"""Each runner's own unit tests (runner.json "test"), e.g. byte-exact sizes in its language."""

from __future__ import annotations

import subprocess

import pytest
from conftest import runner_or_skip

from serbench import runners

WITH_TESTS = [name for name, spec in runners.discover().items() if spec.test]


@pytest.mark.parametrize("runner", WITH_TESTS)
def test_runner_unit_tests(runner: str) -> None:
    spec = runner_or_skip(runner)
    for command in spec.test:
        proc = subprocess.run(
            command, cwd=spec.directory, capture_output=True, text=True, timeout=1800
        )
        tail = (proc.stdout + proc.stderr)[-3000:]
        assert proc.returncode == 0, f"{' '.join(command)} failed:\n{tail}"
