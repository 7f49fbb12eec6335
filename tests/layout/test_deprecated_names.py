"""Old names kept for code outside the suite, and no longer used inside it."""

from __future__ import annotations

import ast
from pathlib import Path

from conformance.core import engine, protocol

ROOT = Path(__file__).resolve().parents[2]

STILL_ON_THE_OLD_NAME = {
    "conformance/verify/cluster.py",
    "conformance/verify/driver.py",
    "conformance/verify/pool.py",
    "conformance/verify/run.py",
}
"""Modules another branch rewrites at the same time (issue 22's verify work): they import
``conformance.core.protocol`` once it has landed, and ``core/engine.py`` goes."""


def test_the_old_engine_module_only_re_exports_the_protocol() -> None:
    assert engine.__all__
    for name in engine.__all__:
        assert getattr(engine, name) is getattr(protocol, name)


def test_no_module_of_the_suite_imports_the_old_engine_module_but_those_waiting() -> None:
    importers = set()
    for path in sorted((ROOT / "conformance").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "conformance.core.engine":
                importers.add(path.relative_to(ROOT).as_posix())
    assert importers == STILL_ON_THE_OLD_NAME
