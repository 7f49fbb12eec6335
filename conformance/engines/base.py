"""What every built-in engine shares, whatever its registry: its description, its status, an install step.

A built-in engine comes from PyPI (a venv of its own, :mod:`conformance.engines.thirdparty`) or from
npm (a package folder run with Node.js, :mod:`conformance.engines.npm`); both are described by a
:class:`BuiltinEngine`, report an :class:`EngineStatus` and run their install steps through
:func:`run_step`, which fails with an :class:`InstallError` carrying the tail of the output.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from conformance.core.errors import EngineFailure

Registry = Literal["PyPI", "npm"]


@dataclasses.dataclass(frozen=True)
class BuiltinEngine:
    """A real engine from the package registries and how the harness runs it.

    ``distribution`` is the package's name on its registry and ``module`` what imports it (the
    Python module, or the name ``require`` takes); ``server`` is, for PyPI, the module the venv's
    Python runs with ``-m``, for npm the file of ``conformance/servers`` that ``node`` runs."""

    name: str
    distribution: str
    version: str
    module: str
    server: str
    summary: str
    registry: Registry = "PyPI"

    @property
    def requirement(self) -> str:
        """The pinned release as its registry's client writes it: ``dame-rs==0.2.0``, ``draughts@0.2.1``."""
        if self.registry == "npm":
            return f"{self.distribution}@{self.version}"
        return f"{self.distribution}=={self.version}"


@dataclasses.dataclass(frozen=True)
class EngineStatus:
    """What a status check found in one engine's folder (a venv, or an npm package folder)."""

    engine: BuiltinEngine
    directory: Path
    exists: bool
    engine_version: str | None = None
    project_version: str | None = None
    project_file: str | None = None
    problems: tuple[str, ...] = ()
    python_runs: bool = True
    """False when a venv's Python itself fails (e.g. its base interpreter is gone)."""

    @property
    def works(self) -> bool:
        return self.exists and not self.problems

    @property
    def summary(self) -> str:
        if not self.exists:
            return "not installed" + (f" ({'; '.join(self.problems)})" if self.problems else "")
        if self.problems:
            return "broken: " + "; ".join(self.problems)
        return "ok"


class InstallError(EngineFailure):
    """A step of an install failed; ``output`` is the tail of what the failing command printed."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.output = output


class ToolMissing(InstallError):
    """A program an engine needs to install or run (``node``, ``npm``) is not on ``PATH``: the
    engine is skipped by an install of every engine, and fails an install that names it."""


TAIL_LINES: Final = 25

Say = Callable[[str], None]


def tail(text: str, lines: int = TAIL_LINES) -> str:
    """The last ``lines`` lines of ``text``."""
    return "\n".join(text.rstrip().splitlines()[-lines:])


def probe(command: Sequence[str], timeout: float = 60.0) -> dict[str, Any] | str:
    """Run a program that prints a JSON object as its last line (a venv's Python or node asked
    what it holds): that object, or why there is none (the error, the tail of its stderr, or its
    exit status)."""
    try:
        completed = subprocess.run(
            list(command), capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    lines = completed.stdout.strip().splitlines()
    try:
        report = json.loads(lines[-1]) if lines else None
    except ValueError:
        report = None
    if isinstance(report, dict):
        return report
    return tail(completed.stderr, 3) or f"exit status {completed.returncode}"


def run_step(command: Sequence[str], what: str, timeout: float, *, cwd: Path | None = None) -> None:
    """Run one install step; :class:`InstallError` (``what``, and the tail of its output) if it
    cannot start, runs past ``timeout`` seconds or exits with a status other than 0."""
    try:
        completed = subprocess.run(
            list(command),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            check=False,
            cwd=cwd,
        )
    except OSError as error:
        raise InstallError(f"{what}: cannot run {command[0]}: {error}") from None
    except subprocess.TimeoutExpired as error:
        output = error.output if isinstance(error.output, str) else ""
        raise InstallError(f"{what}: no result after {timeout:g} s", tail(output)) from None
    if completed.returncode != 0:
        raise InstallError(f"{what}: exit status {completed.returncode}", tail(completed.stdout))
