"""The real engines from the package registries, each certified in a folder of its own.

- ``dame-rs``: distribution ``dame-rs==0.2.0``, module ``dame``, server ``conformance.servers.dame_jsonl``
- ``draughts-js``: npm package ``draughts@0.2.1`` (draughts.js), server ``conformance/servers/draughts_js.js``
- ``py-draughts``: ``py-draughts==1.10.1``, module ``draughts``, ``conformance.servers.py_draughts_jsonl``
- ``pydraughts``: ``pydraughts==0.6.7``, module ``draughts``, ``conformance.servers.pydraughts_jsonl``

The npm engine lives in a package folder run with Node.js (:mod:`conformance.engines.npm`); what
follows is about the PyPI engines, and this module's functions dispatch to that module for the other.

py-draughts and pydraughts both install a top-level package named ``draughts``, so no single
environment can hold both: each engine gets a venv under the *engines directory*
(``$DRAUGHTS_ENGINES_DIR``, else ``./.engines``), holding the engine and this project. The harness
reaches it through the JSON-lines protocol (:class:`~conformance.engines.adapters.jsonl.JsonlEngine`),
running ``<venv>/bin/python -I -m conformance.servers.<x>_jsonl``; ``-I`` keeps the caller's
``PYTHONPATH``, user site-packages and current directory out of the engine's environment.

``draughts-conformance engines install [NAME...]`` (:func:`install`) creates the folders;
``draughts-conformance engines list`` (:func:`status`) says what is there. The versions are
pinned because the findings of ``docs/real-engines.md`` and the baselines under
``tests/harness/baselines/`` are version-specific.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from conformance.core.errors import UsageError
from conformance.core.protocol import (
    EngineError,
)
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet
from conformance.engines import npm
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.trace import Trace
from conformance.engines.base import (
    BuiltinEngine,
    EngineStatus,
    InstallError,
    Say,
    probe,
    run_step,
)
from conformance.engines.selfinstall import (
    PROJECT_DISTRIBUTION,
    ProjectSource,
    SelfInstallError,
    project_source,
)

ENGINES_DIR_VARIABLE: Final = "DRAUGHTS_ENGINES_DIR"
DEFAULT_ENGINES_DIR: Final = ".engines"
START_TIMEOUT: Final = 30.0
"""Seconds an engine's server gets to start (py-draughts imports numpy, fastapi... ~0.5 s warm)."""


BUILTIN_ENGINES: Final[dict[str, BuiltinEngine]] = {
    engine.name: engine
    for engine in (
        BuiltinEngine(
            "dame-rs",
            "dame-rs",
            "0.2.0",
            "dame",
            "conformance.servers.dame_jsonl",
            "Rust engine with Python bindings (module dame): moves, perft, game end, Hub",
        ),
        BuiltinEngine(
            "draughts-js",
            "draughts",
            "0.2.1",
            "draughts",
            "draughts_js.js",
            "JavaScript library by shubhendusaurabh (npm draughts): moves, FEN, PDN, game over; no draw rules",
            registry="npm",
        ),
        BuiltinEngine(
            "py-draughts",
            "py-draughts",
            "1.10.1",
            "draughts",
            "conformance.servers.py_draughts_jsonl",
            "pure-Python library by miskibin (module draughts): boards, PDN, engine, web UI",
        ),
        BuiltinEngine(
            "pydraughts",
            "pydraughts",
            "0.6.7",
            "draughts",
            "conformance.servers.pydraughts_jsonl",
            "pure-Python library by AttackingOrDefending (module draughts): variants, PDN, Hub/DXP clients",
        ),
    )
}


class UnknownEngineError(UsageError, ValueError):
    """A name that is not one of :data:`BUILTIN_ENGINES`."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown engine {name!r}; the built-in engines are: {', '.join(BUILTIN_ENGINES)}")
        self.name = name


def lookup(name: str) -> BuiltinEngine:
    """The built-in engine called ``name``; :class:`UnknownEngineError` otherwise."""
    try:
        return BUILTIN_ENGINES[name]
    except KeyError:
        raise UnknownEngineError(name) from None


# -- where the engines live -----------------------------------------------------------------------


def engines_dir() -> Path:
    """``$DRAUGHTS_ENGINES_DIR`` if set (and not blank), else ``./.engines``; made absolute."""
    configured = os.environ.get(ENGINES_DIR_VARIABLE, "").strip()
    return Path(configured or DEFAULT_ENGINES_DIR).expanduser().absolute()


def engine_dir(name: str, root: Path | None = None) -> Path:
    """Engine ``name``'s folder under the engines directory: its venv, or its npm package folder."""
    return (root or engines_dir()) / lookup(name).name


def venv_python(name: str, root: Path | None = None) -> Path:
    """The Python of a PyPI engine's venv."""
    return engine_dir(name, root) / "bin" / "python"


def server_command(name: str, root: Path | None = None) -> list[str]:
    """The command line that serves engine ``name`` over JSON-lines from its folder."""
    engine = lookup(name)
    if engine.registry == "npm":
        return npm.server_command(engine, engine_dir(name, root))
    return [str(venv_python(name, root)), "-I", "-m", engine.server]


def builtin_engine(
    name: str,
    timeout: float = 10.0,
    *,
    root: Path | None = None,
    trace: Trace | None = None,
    rule_set: RuleSet = INTERNATIONAL_SET,
) -> JsonlEngine:
    """A started JSON-lines engine for built-in engine ``name`` (one per worker), started for
    ``rule_set`` (its server declares the games its library plays and plays the one it is given).

    ``EngineError("start")`` when it is not installed or cannot run (the message says how to
    install it, or that ``node`` is missing) or the server does not start;
    :class:`UnknownEngineError` for a name that is not built in.
    """
    engine = lookup(name)
    folder = engine_dir(name, root)
    install_hint = f"run: draughts-conformance engines install {name}"
    if engine.registry == "npm":
        if not npm.package_dir(engine, folder).exists():
            raise EngineError(
                "start", f"{name} is not installed: no npm package folder at {folder}; {install_hint}"
            )
        if npm.node() is None:
            raise EngineError("start", f"{name} needs Node.js: node is not on PATH")
    elif not venv_python(name, root).exists():
        raise EngineError(
            "start", f"{name} is not installed: no virtual environment at {folder}; {install_hint}"
        )
    return JsonlEngine(
        server_command(name, root),
        timeout=timeout,
        start_timeout=START_TIMEOUT,
        trace=trace,
        rule_set=rule_set,
    )


# -- what is installed ----------------------------------------------------------------------------

_PROBE: Final = """
import importlib, importlib.metadata as md, json, sys
report = {"python": sys.version.split()[0]}
try:
    report["engine_version"] = md.version(sys.argv[1])
except md.PackageNotFoundError:
    report["engine_version"] = None
try:
    importlib.import_module(sys.argv[2])
    report["engine_import"] = None
except Exception as error:
    report["engine_import"] = f"{type(error).__name__}: {error}"
try:
    report["project_version"] = md.version(sys.argv[3])
except md.PackageNotFoundError:
    report["project_version"] = None
try:
    import conformance, oracle
    importlib.import_module(sys.argv[4])
    report["project_file"] = conformance.__file__
    report["project_import"] = None
except Exception as error:
    report["project_file"] = None
    report["project_import"] = f"{type(error).__name__}: {error}"
print(json.dumps(report))
"""


def status(name: str, root: Path | None = None) -> EngineStatus:
    """Whether engine ``name``'s folder exists and works. A venv: it imports the engine module and
    this project's server, and holds the pinned engine version and the project this harness
    expects. An npm package folder: :func:`conformance.engines.npm.status`."""
    engine = lookup(name)
    venv = engine_dir(name, root)
    if engine.registry == "npm":
        return npm.status(engine, venv)
    python = venv_python(name, root)
    if not python.exists():
        return EngineStatus(engine, venv, exists=False)
    command = [str(python), "-I", "-c", _PROBE, engine.distribution, engine.module, PROJECT_DISTRIBUTION]
    report = probe([*command, engine.server])
    if isinstance(report, str):
        return EngineStatus(
            engine, venv, exists=True, problems=(f"its Python does not run: {report}",), python_runs=False
        )
    problems = []
    version = report.get("engine_version")
    if version is None:
        problems.append(f"{engine.distribution} is not installed")
    elif version != engine.version:
        problems.append(f"{engine.distribution} {version} installed, {engine.version} expected")
    if report.get("engine_import"):
        problems.append(f"import {engine.module} fails: {report['engine_import']}")
    if report.get("project_import"):
        problems.append(f"this project is not importable there: {report['project_import']}")
    else:
        problems += _project_problems(report)
    return EngineStatus(
        engine,
        venv,
        exists=True,
        engine_version=version,
        project_version=report.get("project_version"),
        project_file=report.get("project_file"),
        problems=tuple(problems),
    )


def _project_problems(report: Mapping[str, Any]) -> list[str]:
    """What is wrong with the project a venv holds, compared with the one :func:`install` puts in."""
    try:
        expected = expected_project()
    except SelfInstallError as error:
        return [f"cannot tell which {PROJECT_DISTRIBUTION} it should hold: {error}"]
    if expected.editable_root is not None:
        location = Path(str(report.get("project_file"))).resolve().parent.parent
        if location != expected.editable_root:
            return [f"it runs the project from {location}, not from {expected.editable_root}"]
    elif report.get("project_version") != expected.version:
        return [
            f"{PROJECT_DISTRIBUTION} {report.get('project_version')} installed there, {expected.version} expected"
        ]
    return []


# -- installing -----------------------------------------------------------------------------------


def expected_project() -> ProjectSource:
    """How this project goes into an engine's venv: editable from the source tree the harness runs
    from, else a wheel of the installed distribution (:mod:`conformance.engines.selfinstall`); never the
    index, where this version may not exist."""
    return project_source()


def install(
    name: str,
    root: Path | None = None,
    *,
    force: bool = False,
    say: Say = print,
    python: str | None = None,
    timeout: float = 900.0,
) -> EngineStatus:
    """Create (or complete) engine ``name``'s venv: ``python -m venv``, then ``pip install`` the
    pinned engine and this project (as :func:`expected_project` says: never from the index).
    Idempotent: a venv that already works is left alone unless ``force``. ``python`` makes the
    venv (default: the Python running this). :class:`InstallError` when a step fails; the final
    :class:`EngineStatus` otherwise. An npm engine: :func:`conformance.engines.npm.install`
    (``timeout`` is then npm's; :class:`~conformance.engines.base.ToolMissing` without node
    or npm)."""
    engine = lookup(name)
    root = root or engines_dir()
    venv = engine_dir(name, root)
    if engine.registry == "npm":
        return npm.install(engine, venv, force=force, say=say, timeout=timeout)
    before = status(name, root)
    if before.works and not force:
        say(f"{name}: already installed in {venv} ({engine.requirement}); nothing to do")
        return before
    started = time.monotonic()
    if not before.exists or not before.python_runs:
        fresh = [] if not before.exists else ["--clear"]
        say(f"{name}: {'creating' if not fresh else 'recreating'} the virtual environment {venv}")
        venv.parent.mkdir(parents=True, exist_ok=True)
        run_step(
            [python or sys.executable, "-m", "venv", *fresh, str(venv)],
            f"{name}: python -m venv {venv}",
            timeout=300,
        )
    elif before.problems:
        say(f"{name}: repairing {venv} ({'; '.join(before.problems)})")
    with tempfile.TemporaryDirectory(prefix="draughts-conformance-") as workdir:
        try:
            project = expected_project()
            project_arguments = project.pip_arguments(Path(workdir))
        except SelfInstallError as error:
            raise InstallError(f"{name}: {error}") from None
        say(f"{name}: pip install {engine.requirement} and {project.description}")
        run_step(
            [
                str(venv_python(name, root)),
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--no-input",
                "--no-compile",  # bytecode is written on first import, for the few modules a server uses
                engine.requirement,
                *project_arguments,
            ],
            f"{name}: pip install failed",
            timeout=timeout,
        )
    after = status(name, root)
    if not after.works:
        raise InstallError(f"{name}: installed, but the venv does not work: {after.summary}")
    say(f"{name}: ok, {engine.requirement} in {venv} ({time.monotonic() - started:.1f} s)")
    return after
