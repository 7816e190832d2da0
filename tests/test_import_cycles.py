"""No import cycle among serbench's modules, counting every import statement wherever it is
(an import inside a function still ties the two modules together) and the packages an import
initialises on the way (importing pkg.sub.mod runs pkg/sub/__init__.py first, unless the
importer is inside pkg.sub)."""

from __future__ import annotations

import ast
from pathlib import Path

import serbench

PACKAGE = Path(serbench.__file__).parent


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package directory, by dotted name."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _owner(name: str, known: dict[str, Path]) -> str | None:
    """The module an imported name lives in: itself, or the nearest enclosing module."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _initialised(importer: str, target: str) -> set[str]:
    """The target, and its enclosing packages that the importer is not inside of."""
    parts, own = target.split("."), importer.split(".")
    enclosing = (parts[:n] for n in range(1, len(parts)))
    return {target} | {".".join(p) for p in enclosing if own[: len(p)] != p}


def imports(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (absolute and relative imports) or whose
    package initialisation it triggers."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(_owner(alias.name, known) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                # `from pkg import sub` imports the submodule, `from mod import name` the module
                targets.update(_owner(f"{base}.{alias.name}", known) for alias in node.names)
        graph[name] = {
            m
            for t in targets
            if t is not None and t != name
            for m in _initialised(name, t)
            if m in known
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_serbench_has_no_import_cycle() -> None:
    found = cycles(imports(PACKAGE))
    assert not found, f"import cycles: {found}"


def _package(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "pkg"
    for name, text in files.items():
        path = pkg / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return pkg


def test_finds_a_cycle_through_a_function_local_import(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg.b import thing\n",
            "b.py": "def thing():\n    from pkg import c\n    return c\n",
            "c.py": "import pkg.a\n",
            "d.py": "from pkg import a\n",
        },
    )
    assert cycles(imports(pkg)) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_finds_relative_and_package_cycles(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "from .sub import view\n",
            "model.py": "X = 1\n",
            "sub/__init__.py": "",
            "sub/view.py": "from ..model import X\nfrom .. import top\n",
            "top.py": "from pkg import sub\nfrom pkg.sub.view import *\n",
        },
    )
    assert cycles(imports(pkg)) == [["pkg.sub.view", "pkg.top"]]


def test_finds_a_cycle_through_another_package_s_init(tmp_path: Path) -> None:
    """a imports a module of sub, whose package imports b, which imports a."""
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg.sub.leaf import X\n",
            "b.py": "import pkg.a\n",
            "sub/__init__.py": "from pkg import b\n",
            "sub/leaf.py": "X = 1\n",
        },
    )
    assert imports(pkg)["pkg.a"] == {"pkg.sub", "pkg.sub.leaf"}
    assert cycles(imports(pkg)) == [["pkg.a", "pkg.b", "pkg.sub"]]


def test_an_acyclic_package_passes(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "from pkg.a import f\n",
            "a.py": "from pkg import b\n",
            "b.py": "",
            "sub/__init__.py": "from pkg.sub.leaf import X\n",
            "sub/leaf.py": "from pkg.sub import other\nfrom pkg.b import *\n",
            "sub/other.py": "",
        },
    )
    assert imports(pkg)["pkg.sub.leaf"] == {"pkg.sub.other", "pkg.b"}
    assert cycles(imports(pkg)) == []
