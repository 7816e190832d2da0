"""The runner knows the orchestrator through the protocol alone: no module imports it."""

from __future__ import annotations

import ast
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[1]


def orchestrator_imports(source: str) -> list[str]:
    """The `serbench` modules a Python source imports (its own package does not count)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [n for n in names if n == "serbench" or n.startswith("serbench.")]
    return found


def test_the_check_sees_every_form_of_import() -> None:
    assert orchestrator_imports("import serbench") == ["serbench"]
    assert orchestrator_imports("from serbench.datasets import get") == ["serbench.datasets"]
    assert orchestrator_imports("def f():\n    import serbench.paths as p\n") == ["serbench.paths"]
    assert orchestrator_imports("from serbench_runner_python import cell") == []


def test_no_module_imports_the_orchestrator() -> None:
    sources = [p for p in RUNNER.rglob("*.py") if ".venv" not in p.parts]
    assert len(sources) > 20  # the package, its tests and the generated models
    offenders = {
        str(p.relative_to(RUNNER)): found
        for p in sources
        if (found := orchestrator_imports(p.read_text()))
    }
    assert offenders == {}
