"""The layout: imports run one way, from ``cli/`` down to ``oracle/`` (docs/architecture.md).

Every import is read with :mod:`ast`, the ones put off inside a function or under
``TYPE_CHECKING`` too, so that no import can hide an arrow running back up, or a circle.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ROOMS = ("cli", "servers", "site", "bisect", "verify", "harness", "report", "engines", "core")
"""The rooms of ``conformance/``, from the top floor down: a module may import its own room and the
rooms below it, never one above. ``oracle`` stands under them all and imports none of them."""


def modules(root: Path) -> dict[str, Path]:
    """Every module of ``conformance`` and ``oracle`` under ``root`` by its dotted name."""
    found = {}
    for package in ("conformance", "oracle"):
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "templates" in parts:  # starter engines copied into an author's folder, not imported
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _targets(node: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, tuple[str, ...]]]:
    """The modules an import statement names, with the names it takes from them."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, ()
    elif isinstance(node, ast.ImportFrom):
        base = module
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        yield base, tuple(alias.name for alias in node.names)


def imports_of(root: Path) -> dict[str, set[str]]:
    """Who imports whom among the modules under ``root``: lazy imports included, a name taken from
    a package resolved to its submodule where there is one."""
    known = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        arrows: set[str] = set()
        for node in ast.walk(tree):
            for target, names in _targets(node, name, path.name == "__init__.py"):
                subs = [f"{target}.{taken}" for taken in names if f"{target}.{taken}" in known]
                arrows.update(subs)
                if len(subs) < len(names) or not names:
                    arrows.add(target)
        graph[name] = {target for target in arrows if target in known and target != name}
    return graph


def room_of(module: str) -> str | None:
    """The room a module stands in (``oracle`` for the rules), None for a module in none."""
    parts = module.split(".")
    if parts[0] == "oracle":
        return "oracle"
    if len(parts) == 1:
        return "core"  # the package's face: its version only
    if parts[1] == "__main__":
        return "cli"
    return parts[1] if parts[1] in ROOMS else None


def _floor(room: str | None) -> int:
    order = (*ROOMS, "oracle")
    return len(order) - order.index(room) if room in order else 0


def upward_imports(root: Path) -> list[tuple[str, str]]:
    """The imports that run from a room to one above it (or to a module in no room)."""
    return sorted(
        (module, target)
        for module, targets in imports_of(root).items()
        for target in targets
        if _floor(room_of(target)) > _floor(room_of(module)) or room_of(target) is None
    )


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a loop (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_runs_back_up() -> None:
    assert upward_imports(ROOT) == []


def test_no_circle_of_modules() -> None:
    assert circles(imports_of(ROOT)) == []


def test_every_module_stands_in_a_room() -> None:
    assert [module for module in modules(ROOT) if room_of(module) is None] == []


def test_the_oracle_imports_nothing_of_the_harness() -> None:
    graph = imports_of(ROOT)
    assert [
        (m, t)
        for m, targets in graph.items()
        if m.startswith("oracle")
        for t in targets
        if t.startswith("conformance")
    ] == []


def test_the_graph_sees_the_imports_that_are_there() -> None:
    graph = imports_of(ROOT)
    assert "conformance.core.protocol" in graph["conformance.engines.adapters.jsonl"]
    assert "conformance.cli.main" in graph["conformance.__main__"]


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_is_a_folder_of_the_package(room: str) -> None:
    assert (ROOT / "conformance" / room / "__init__.py").is_file()


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def test_a_lazy_import_from_core_up_to_cli_is_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "conformance/__init__.py": "",
            "conformance/cli/__init__.py": "",
            "conformance/cli/main.py": "from conformance.core import results\n",
            "conformance/core/__init__.py": "",
            "conformance/core/results.py": """
                def late() -> None:
                    from conformance.cli.main import main  # put off to run time: still an arrow
            """,
        },
    )
    assert upward_imports(root) == [("conformance.core.results", "conformance.cli.main")]


def test_a_relative_import_into_a_higher_room_is_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "conformance/__init__.py": "",
            "conformance/report/__init__.py": "",
            "conformance/report/text.py": "",
            "conformance/engines/__init__.py": "",
            "conformance/engines/npm.py": "from ..report import text\n",
        },
    )
    assert upward_imports(root) == [("conformance.engines.npm", "conformance.report.text")]


def test_a_circle_through_a_type_checking_import_is_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "conformance/__init__.py": "",
            "conformance/bisect/__init__.py": "",
            "conformance/bisect/search.py": "from conformance.bisect import playouts\n",
            "conformance/bisect/playouts.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from conformance.bisect.search import Difference
            """,
        },
    )
    assert circles(imports_of(root)) == [["conformance.bisect.playouts", "conformance.bisect.search"]]


Z3_ENCODING = ("conformance.verify.smt", "conformance.verify.capture_formula", "conformance.verify.jumps")
"""The verifier's second description of the captures: what it checks the oracle against."""

MOVE_GENERATOR = ("oracle.moves", "oracle.captures")


def test_the_z3_encoding_shares_nothing_with_the_oracles_move_generator() -> None:
    """The z3 encoding reads positions and the board with the oracle's modules, never the moves:
    two independent descriptions of the captures agreeing is the point of the proof."""
    graph = imports_of(ROOT)
    reached: set[str] = set()
    todo = list(Z3_ENCODING)
    while todo:
        module = todo.pop()
        for target in graph.get(module, set()):
            if target not in reached:
                reached.add(target)
                todo.append(target)
    assert set(Z3_ENCODING) <= set(graph)
    assert not reached & set(MOVE_GENERATOR), sorted(reached)
