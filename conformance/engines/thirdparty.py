"""The real engines from the package registries, each certified in a virtual environment of its own.

- ``dame-rs``: distribution ``dame-rs==0.2.0``, module ``dame``, server ``conformance.servers.dame_jsonl``
- ``py-draughts``: ``py-draughts==1.10.1``, module ``draughts``, ``conformance.servers.py_draughts_jsonl``
- ``pydraughts``: ``pydraughts==0.6.7``, module ``draughts``, ``conformance.servers.pydraughts_jsonl``

py-draughts and pydraughts both install a top-level package named ``draughts``, so no single
environment can hold both: each engine gets a venv under the *engines directory*
(``$DRAUGHTS_ENGINES_DIR``, else ``./.engines``), holding the engine and this project. The harness
reaches it through the JSON-lines protocol (:class:`~conformance.adapters.jsonl.JsonlEngine`),
running ``<venv>/bin/python -I -m conformance.servers.<x>_jsonl``; ``-I`` keeps the caller's
``PYTHONPATH``, user site-packages and current directory out of the engine's environment.

``draughts-conformance engines install [NAME...]`` (:func:`install`) creates the venvs;
``draughts-conformance engines list`` (:func:`status`) says what is there. The versions are
pinned because the findings of ``docs/real-engines.md`` and the baselines under
``tests/harness/baselines/`` are version-specific.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from conformance.adapters.jsonl import JsonlEngine
from conformance.adapters.trace import Trace
from conformance.engines.selfinstall import (
    PROJECT_DISTRIBUTION,
    ProjectSource,
    SelfInstallError,
    project_source,
)
from conformance.protocol import (
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    BaseEngine,
    Capability,
    Engine,
    EngineError,
    EngineInfo,
    MoveRefused,
    MoveSpec,
    OutcomeAnswer,
    PerftReached,
)
from conformance.servers.oracle_jsonl import serve
from oracle.position import Position

ENGINES_DIR_VARIABLE: Final = "DRAUGHTS_ENGINES_DIR"
DEFAULT_ENGINES_DIR: Final = ".engines"
START_TIMEOUT: Final = 30.0
"""Seconds an engine's server gets to start (py-draughts imports numpy, fastapi... ~0.5 s warm)."""


@dataclasses.dataclass(frozen=True)
class BuiltinEngine:
    """A real engine from the package registries and how the harness runs it."""

    name: str
    distribution: str
    version: str
    module: str
    server: str
    summary: str

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


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


class UnknownEngineError(ValueError):
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


# -- where the venvs live ------------------------------------------------------------------------


def engines_dir() -> Path:
    """``$DRAUGHTS_ENGINES_DIR`` if set (and not blank), else ``./.engines``; made absolute."""
    configured = os.environ.get(ENGINES_DIR_VARIABLE, "").strip()
    return Path(configured or DEFAULT_ENGINES_DIR).expanduser().absolute()


def venv_dir(name: str, root: Path | None = None) -> Path:
    return (root or engines_dir()) / lookup(name).name


def venv_python(name: str, root: Path | None = None) -> Path:
    return venv_dir(name, root) / "bin" / "python"


def server_command(name: str, root: Path | None = None) -> list[str]:
    """The command line that serves engine ``name`` over JSON-lines from its venv."""
    return [str(venv_python(name, root)), "-I", "-m", lookup(name).server]


def builtin_engine(
    name: str, timeout: float = 10.0, *, root: Path | None = None, trace: Trace | None = None
) -> JsonlEngine:
    """A started JSON-lines engine for built-in engine ``name`` (one per worker).

    ``EngineError("start")`` when its venv is missing (the message says how to install it) or
    the server does not start; :class:`UnknownEngineError` for a name that is not built in.
    """
    engine = lookup(name)
    python = venv_python(name, root)
    if not python.exists():
        raise EngineError(
            "start",
            f"{name} is not installed: no virtual environment at {python.parent.parent}; "
            f"run: draughts-conformance engines install {name}",
        )
    return JsonlEngine(
        server_command(engine.name, root), timeout=timeout, start_timeout=START_TIMEOUT, trace=trace
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


@dataclasses.dataclass(frozen=True)
class EngineStatus:
    """What :func:`status` found in one engine's venv."""

    engine: BuiltinEngine
    venv: Path
    exists: bool
    engine_version: str | None = None
    project_version: str | None = None
    project_file: str | None = None
    problems: tuple[str, ...] = ()
    python_runs: bool = True
    """False when the venv's Python itself fails (e.g. its base interpreter is gone)."""

    @property
    def works(self) -> bool:
        return self.exists and not self.problems

    @property
    def summary(self) -> str:
        if not self.exists:
            return "not installed"
        if self.problems:
            return "broken: " + "; ".join(self.problems)
        return "ok"


def status(name: str, root: Path | None = None) -> EngineStatus:
    """Whether engine ``name``'s venv exists and works: it imports the engine module and this
    project's server, and holds the pinned engine version and the project this harness expects."""
    engine = lookup(name)
    venv = venv_dir(name, root)
    python = venv_python(name, root)
    if not python.exists():
        return EngineStatus(engine, venv, exists=False)
    command = [str(python), "-I", "-c", _PROBE, engine.distribution, engine.module, PROJECT_DISTRIBUTION]
    try:
        completed = subprocess.run(
            [*command, engine.server], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return EngineStatus(
            engine, venv, exists=True, problems=(f"its Python does not run: {error}",), python_runs=False
        )
    lines = completed.stdout.strip().splitlines()
    try:
        report = json.loads(lines[-1]) if lines else None
    except ValueError:
        report = None
    if not isinstance(report, dict):
        detail = _tail(completed.stderr, 3) or f"exit status {completed.returncode}"
        return EngineStatus(
            engine, venv, exists=True, problems=(f"its Python does not run: {detail}",), python_runs=False
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


class InstallError(Exception):
    """A step of an install failed; ``output`` is the tail of what the failing command printed."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.output = output


PIP_TAIL_LINES: Final = 25

Say = Callable[[str], None]


def _tail(text: str, lines: int = PIP_TAIL_LINES) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def _run_step(command: Sequence[str], what: str, timeout: float) -> None:
    try:
        completed = subprocess.run(
            list(command),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            check=False,
        )
    except OSError as error:
        raise InstallError(f"{what}: cannot run {command[0]}: {error}") from None
    except subprocess.TimeoutExpired as error:
        output = error.output if isinstance(error.output, str) else ""
        raise InstallError(f"{what}: no result after {timeout:g} s", _tail(output)) from None
    if completed.returncode != 0:
        raise InstallError(f"{what}: exit status {completed.returncode}", _tail(completed.stdout))


def install(
    name: str,
    root: Path | None = None,
    *,
    force: bool = False,
    say: Say = print,
    python: str | None = None,
    pip_timeout: float = 900.0,
) -> EngineStatus:
    """Create (or complete) engine ``name``'s venv: ``python -m venv``, then ``pip install`` the
    pinned engine and this project (as :func:`expected_project` says: never from the index).
    Idempotent: a venv that already works is left alone unless ``force``. ``python`` makes the
    venv (default: the Python running this). :class:`InstallError` when a step fails; the final
    :class:`EngineStatus` otherwise."""
    engine = lookup(name)
    root = root or engines_dir()
    venv = venv_dir(name, root)
    before = status(name, root)
    if before.works and not force:
        say(f"{name}: already installed in {venv} ({engine.requirement}); nothing to do")
        return before
    started = time.monotonic()
    if not before.exists or not before.python_runs:
        fresh = [] if not before.exists else ["--clear"]
        say(f"{name}: {'creating' if not fresh else 'recreating'} the virtual environment {venv}")
        venv.parent.mkdir(parents=True, exist_ok=True)
        _run_step(
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
        _run_step(
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
            timeout=pip_timeout,
        )
    after = status(name, root)
    if not after.works:
        raise InstallError(f"{name}: installed, but the venv does not work: {after.summary}")
    say(f"{name}: ok, {engine.requirement} in {venv} ({time.monotonic() - started:.1f} s)")
    return after


# -- what the servers share (they run inside the engines' venvs) ---------------------------------


SERVED_CAPABILITIES: Final = (
    "fen",
    "initial_position",
    "legal_moves",
    "move_count",
    "perft",
    "play",
    "parse_move",
    "format_move",
    "outcome",
)
"""What the three servers answer: every rules question (not ``choose_move``, the move-choice level).
``counters`` is declared besides by the servers whose library takes the draw-rule counters of a
setup position (:class:`LibraryEngine`)."""


def served_capabilities(*, counters: bool = False) -> frozenset[Capability]:
    """:data:`SERVED_CAPABILITIES` as capabilities (those the installed protocol version has),
    with ``counters`` when the library takes setup counters."""
    known = {capability.value: capability for capability in Capability}
    names = (*SERVED_CAPABILITIES, *(("counters",) if counters else ()))
    return frozenset(known[name] for name in names if name in known)


def canonical_fen(fen: str) -> str:
    """The position of a valid FEN, written the one way every library reads: side, then the ``W``
    section, then the ``B`` section (both present, possibly empty), no ranges, kings as ``K``.

    The servers hand this to their library for every question but ``fen``: those questions are
    about moves and games, not about FEN dialects (``fen`` gets the raw text)."""
    return Position.from_fen(fen).fen()


def default_counters(counters: Mapping[str, int]) -> bool:
    """Whether the draw-rule counters are the defaults (a setup position seen once, counts at 0)."""
    return (
        counters.get("occurrences", 1) == 1
        and counters.get("no_progress_plies", 0) == 0
        and counters.get("endgame_plies", 0) == 0
    )


def loss_rule(pieces_left: int) -> str:
    """Art. 7.2: the side to move has lost with no piece left (7.2.2) or all blocked (7.2.3)."""
    return "7.2.2" if pieces_left == 0 else "7.2.3"


def lowest_article(articles: Sequence[str]) -> str:
    """Of several draw rules a library reports at once, the one the protocol names: the lowest
    article (docs/protocol.md, oracle.game), since the libraries do not rank their draw flags."""
    return min(articles, key=lambda article: tuple(int(part) for part in article.split(".")))


def unwrap_fen_tag(text: str) -> str:
    """``[FEN "W:W28:B33"]`` (a PDN tag, as py-draughts writes its FEN) -> ``W:W28:B33``."""
    match = re.fullmatch(r'\s*\[FEN\s+"([^"]*)"\]\s*', text)
    return match.group(1) if match else text


class PerftGuard:
    """A library's perft behind a cache and a budget: depth ``d`` is not counted when
    ``perft(d-1)**2 / perft(d-2)`` -- the leaves the tree would have if it kept branching as it
    did -- exceeds ``max_leaves``; the answer is then the counts of depths 1..d-1
    (:class:`PerftReached`, a perft ``counts`` answer of protocol 1.1). The estimate uses only
    counts, so where perft stops does not depend on the machine; ``max_leaves`` is set per library
    to about two seconds of its work."""

    def __init__(self, count: Callable[[str, int], int], max_leaves: int, library: str) -> None:
        self._count = count
        self.max_leaves = max_leaves
        self.library = library
        self._cache: dict[tuple[str, int], int] = {}

    def __call__(self, fen: str, depth: int) -> int:
        key = (fen, depth)
        if key in self._cache:
            return self._cache[key]
        if depth >= 3:
            previous, before = self(fen, depth - 1), self(fen, depth - 2)
            estimate = previous * previous // before if before else 0
            if estimate > self.max_leaves:
                raise PerftReached(
                    [self._cache[fen, reached] for reached in range(1, depth)],
                    f"perft({depth}) would count about {estimate} leaves; {self.library} is certified to "
                    f"{self.max_leaves} (about two seconds of its perft)",
                )
        count = self._count(fen, depth)
        self._cache[key] = count
        return count


class LibraryEngine(BaseEngine):
    """A rules library behind the Engine interface: what the three servers answer alike.

    A subclass loads its library, then calls ``super().__init__(name, version, max_perft_leaves,
    counters=...)`` (``counters``: whether :meth:`_setup` takes the draw-rule counters of a setup
    position; an engine that does not declare them is only asked outcomes from default counters);
    it answers ``fen``, ``initial_position`` and ``parse_move`` itself, and gives the library's
    own ways to: read a position (:meth:`_board`, from the canonical FEN), list its legal moves
    (:meth:`_moves`), read one as a :class:`MoveSpec` (:meth:`_spec`) or as text (:meth:`_write`),
    count perft (:meth:`_count`, behind a :class:`PerftGuard`), play one move text
    (:meth:`_push`), write the board's FEN (:meth:`_board_fen`), set up the position and the
    draw-rule counters of an ``outcome`` question (:meth:`_setup`) and tell whether the game
    has ended (:meth:`_ended`, Art. 6 and 7).

    A move of a sequence the library refuses is answered ``illegal`` with its ply
    (:class:`MoveRefused`, protocol 1.1): the harness judges it a ``fail`` of that move's rule when
    the move is legal. So is a move ``format_move`` is given that the library does not list.
    """

    def __init__(self, name: str, version: str, max_perft_leaves: int, *, counters: bool) -> None:
        self.library = name
        self._info = EngineInfo(
            name=name,
            version=version,
            capabilities=served_capabilities(counters=counters),
            adapter="in-process",
        )
        self._perft = PerftGuard(self._count, max_perft_leaves, name)

    @property
    def info(self) -> EngineInfo:
        return self._info

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        return [self._spec(move) for move in self._moves(self._board(fen))]

    def move_count(self, fen: str) -> int:
        return len(self._moves(self._board(fen)))

    def perft(self, fen: str, depth: int) -> int:
        return self._perft(fen, depth)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        board = self._board(fen)
        for ply, text in enumerate(moves, start=1):
            self._push(board, ply, text)
        return self._board_fen(board)

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        for candidate in self._moves(self._board(fen)):
            if self._spec(candidate) == move:
                return self._write(candidate, notation)
        raise MoveRefused(str(move), 1, f"{self.library} does not list it among its legal moves")

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        board = self._setup(fen, counters)
        for ply, text in enumerate(moves):
            ended = self._ended(board, ply)
            if ended is not None:
                return ended
            self._push(board, ply + 1, text)
        return self._ended(board, len(moves)) or OutcomeAnswer("ongoing")

    # -- the library's own ways ------------------------------------------------------------------

    def _board(self, fen: str) -> Any:
        """The library's board for ``fen`` (valid), read from :func:`canonical_fen`."""
        raise NotImplementedError

    def _moves(self, board: Any) -> Sequence[Any]:
        """The library's legal moves, as it lists them."""
        raise NotImplementedError

    def _spec(self, move: Any) -> MoveSpec:
        raise NotImplementedError

    def _write(self, move: Any, notation: str) -> str:
        """The library's text for one of its moves (``notation``: ``pdn`` or ``hub``)."""
        raise NotImplementedError

    def _count(self, fen: str, depth: int) -> int:
        raise NotImplementedError

    def _push(self, board: Any, ply: int, text: str) -> None:
        """Play move text ``text``, the ``ply``-th (from 1); :class:`MoveRefused` (``text``, ``ply``
        and the library's words) if the library refuses it."""
        raise NotImplementedError

    def _board_fen(self, board: Any) -> str:
        raise NotImplementedError

    def _setup(self, fen: str, counters: Mapping[str, int]) -> Any:
        """The board of an ``outcome`` question; ``EngineDeclined`` for counters it cannot take
        (for any counters but the defaults when the engine does not declare ``counters``)."""
        raise NotImplementedError

    def _ended(self, board: Any, ply: int) -> OutcomeAnswer | None:
        """The result once the game has ended, ``ply`` plies after the setup, or ``None`` while it goes on."""
        raise NotImplementedError


def serve_main(make: Callable[[], Engine], name: str, argv: Sequence[str] | None = None) -> int:
    """The ``main`` of a server module: serve ``make()`` over JSON-lines on stdin/stdout."""
    engine = lookup(name)
    parser = argparse.ArgumentParser(
        prog=f"python -m {engine.server}",
        description=f"Serve {engine.requirement} (module {engine.module}) over the JSON-lines engine "
        f"protocol (version {PROTOCOL_VERSION}.{PROTOCOL_MINOR}, docs/protocol.md) on stdin/stdout. Run it with the Python "
        f"of the engine's venv: draughts-conformance engines install {name}.",
    )
    parser.parse_args(argv)
    writer = sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever the library prints must not enter the protocol stream
    return serve(make(), sys.stdin.buffer, writer, sys.stderr)
