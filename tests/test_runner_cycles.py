"""No import cycle among a runner's own modules, where the language's compiler allows one:
Rust modules of a crate (`crate::name`), TypeScript files (relative imports) and Java
packages (`import serbench.<package>.`). Python's own modules are checked by
test_import_cycles.py; Go refuses package cycles itself. Comments are left out, and so is
generated code (its imports follow the model, not the code written here)."""

from __future__ import annotations

import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

RUNNERS = Path(__file__).resolve().parent.parent / "runners"
Graph = dict[str, set[str]]


def _code(path: Path) -> str:
    """The file without // line comments and /* */ blocks (doc comments name modules too)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.sub(r"^\s*//.*$", "", text, flags=re.M)


def rust_modules(src: Path) -> Graph:
    """Top-level modules of the crate (a folder is one module) -> those it names."""
    files = [p for p in src.rglob("*.rs") if p.name not in ("lib.rs", "main.rs")]
    modules = {p.relative_to(src).parts[0].removesuffix(".rs") for p in files}
    graph: Graph = {m: set() for m in modules}
    for p in files:
        here = p.relative_to(src).parts[0].removesuffix(".rs")
        named = set(re.findall(r"\bcrate::(\w+)", _code(p)))
        graph[here] |= {m for m in named & modules if m != here}
    return graph


def typescript_files(src: Path) -> Graph:
    """Each .ts file of the runner (generated code aside) -> the files it imports."""
    files = [p for p in src.rglob("*.ts") if "gen" not in p.relative_to(src).parts]
    graph: Graph = {str(p.relative_to(src)): set() for p in files}
    for p in files:
        for spec in re.findall(r"""(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""", _code(p)):
            target = (p.parent / spec).resolve().with_suffix(".ts")
            if target.exists() and target != p.resolve():
                graph[str(p.relative_to(src))].add(str(target.relative_to(src.resolve())))
    return graph


def java_packages(src: Path, root: str = "serbench") -> Graph:
    """Each package under ``root`` -> the packages of it that its files import."""
    graph: Graph = {}
    for p in src.rglob("*.java"):
        here = ".".join(p.relative_to(src).parent.parts)
        pattern = rf"^import\s+(?:static\s+)?({root}(?:\.[a-z]\w*)*)\.[A-Z]"
        imported = re.findall(pattern, _code(p), re.M)
        graph.setdefault(here, set()).update(q for q in imported if q != here)
    return graph


def cycle(graph: Graph) -> list[str] | None:
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as e:
        return list(e.args[1])
    return None


@pytest.mark.parametrize(
    ("name", "graph"),
    [
        ("rust", lambda: rust_modules(RUNNERS / "rust" / "src")),
        ("node", lambda: typescript_files(RUNNERS / "node" / "src")),
        ("java", lambda: java_packages(RUNNERS / "java" / "src" / "main" / "java")),
    ],
)
def test_no_import_cycle_in_runner(name: str, graph) -> None:  # type: ignore[no-untyped-def]
    found = cycle(graph())
    assert found is None, f"{name}: import cycle {' -> '.join(found)}"


def test_the_check_finds_a_cycle(tmp_path: Path) -> None:
    """A check that cannot fail checks nothing: two Rust modules naming each other."""
    (tmp_path / "a.rs").write_text("use crate::b::B;\n// crate::c is only named here\n")
    (tmp_path / "b.rs").write_text("pub struct B;\nfn f() { crate::a::g() }\n")
    (tmp_path / "c.rs").write_text("")
    found = cycle(rust_modules(tmp_path))
    assert found is not None and set(found) == {"a", "b"}
    (tmp_path / "b.ts").write_text('import { a } from "./a.js"\n')
    (tmp_path / "a.ts").write_text('import type { b } from "./b.js"\n')
    assert cycle(typescript_files(tmp_path)) is not None
