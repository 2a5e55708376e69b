"""The package's modules import one another in one direction only: no circle, not
even through imports made for type checking alone (they still tie the modules
together, and a circle among them is one refactoring away from an import error).

The graph is read from the source with ``ast``: every ``import`` and ``from ...
import`` of a module of the package, wherever it stands. ``from pkg import name``
points at the submodule ``pkg.name`` when there is one, else at ``pkg`` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import governance_client

PACKAGE = Path(governance_client.__file__).resolve().parent


def module_files(package: Path) -> dict[str, Path]:
    """Every module of ``package`` by its dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports."""
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = _package_of(module, path).split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in modules:
                    targets.add(submodule)
                elif base in modules:
                    targets.add(base)
    return targets


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = module_files(package)
    return {name: imported(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that import one another, found by a
    depth-first search (each circle as its modules in import order, the first
    repeated at the end)."""
    found: list[list[str]] = []
    state: dict[str, str] = {}  # "open" while on the search path, then "done"
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_package_imports_without_a_circle() -> None:
    graph = import_graph(PACKAGE)
    assert "governance_client._async.client" in graph  # the graph is the package's
    assert graph["governance_client._async.client"], "the client imports its resources"
    assert cycles(graph) == []


def test_a_circle_is_found_even_through_type_checking_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n"
    )
    (package / "c.py").write_text("import pkg.a\nfrom pkg import sub\n")
    graph = import_graph(package)
    assert graph["pkg.c"] == {"pkg.a", "pkg.sub"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]
