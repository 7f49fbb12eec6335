"""Helpers of the hardening tests (imported by name: ``tests/hardening`` is on ``sys.path``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).resolve().parent / "hostile"
"""Engines that misbehave on purpose (Python modules for ``python:``, scripts for ``jsonl:``)."""


def cli(
    *args: str, cwd: Path, timeout: float = 300, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``draughts-conformance ARGS`` in ``cwd`` (the hostile engines importable), its output as text."""
    paths = [str(ROOT), str(HOSTILE), os.environ.get("PYTHONPATH", "")]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
    )


def pytest_session(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """A pytest session of the plugin (``-p conformance.harness.pytest_plugin`` is the package's entry point)
    in ``cwd``, with no test file of its own: the corpus cases only."""
    paths = [str(ROOT), str(HOSTILE), os.environ.get("PYTHONPATH", "")]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(cwd), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
    )
