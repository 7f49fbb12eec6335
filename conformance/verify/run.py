"""The ``verify`` driver: generated positions through an engine, every answer checked three ways.

For each of ``N`` positions drawn from :mod:`conformance.verify.strategies` the driver asks the
engine, through the harness's :class:`~conformance.engine.Engine` interface (any adapter), for
what its capabilities allow -- the legal moves of the position and of its colour-flipped twin,
the position after a few of those moves, the outcome of a random game from an endgame -- and
checks each answer:

* **with z3** (``legal_moves[z3]``): :func:`~conformance.verify.checks.verify_position` --
  soundness, optimality (an UNSAT proof), completeness of the captures; the quiet moves when
  nothing can be captured. Independent of the oracle's move generator.
* **invariants** (``legal_moves[invariants]``, ``symmetry``, ``after[invariants]``): every
  move readable and listed once, captured squares distinct and the opponent's; the flipped
  position gets the flipped moves; after a move, pieces = before - captured, no man on its own
  promotion row, promotion exactly when a man ends on the far row. No oracle either.
* **differentially** (``legal_moves[oracle]``, ``after[oracle]``, ``outcome[oracle]``): the
  same answers next to the oracle's (:mod:`conformance.verify.differential`).

Each (position, check) is one :class:`~conformance.results.Result` of the canonical report
stream (``case`` ``verify-<seed>-<index>``, ``position`` the FEN), filed under the articles of
what was checked -- on a failure, of the findings' kinds. An engine that breaks gives ``error``,
one that declines ``skip``; z3 answering ``unknown`` is an ``error``, never a pass.

On a disagreement the driver *shrinks* the position (:func:`shrink_position`: remove pieces one
at a time, turn kings into men, while the same check still reports the same kind of finding)
and describes the minimal position (:class:`Disagreement`): FEN, board, expected vs got, and a
case for ``cases/`` whose expectation is marked ``TODO: work out by hand`` -- suggested from the
SMT enumeration (or the rules' arithmetic), never from the oracle.

Determinism. Position ``i`` of seed ``S`` is drawn by the seeded generators
(:class:`~conformance.verify.strategies.RandomChooser`) from ``random.Random`` seeded with a
string naming ``S`` and ``i`` (string seeds go through SHA-512: the same on every machine and
Python process, whatever ``PYTHONHASHSEED``). So the same seed gives the same positions, and the
first ``n`` positions of a run do not depend on ``N``: ``verify-S-i`` names one position for
good. Hypothesis' own machinery was not used for drawing: ``example()`` is documented as not
reproducible and ``find`` searches for one example rather than drawing ``N``; the Hypothesis
strategies of the same generators stay for the tests, where Hypothesis shrinks failures itself.

In-process engines get the ``engine_timeout`` as an alarm (``SIGALRM``, main thread, POSIX
only); subprocess adapters keep their own timeouts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import hashlib
import json
import random
import signal
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import FrameType
from typing import Any, Final

from conformance import __version__
from conformance.corpus import CORPUS_ROOT, Capability, MoveSpec, article_sort_key
from conformance.engine import (
    PROTOCOL_VERSION,
    Engine,
    EngineDeclined,
    EngineError,
    EngineInfo,
    OutcomeAnswer,
)
from conformance.report import Report, ReportWriter
from conformance.results import ErrorInfo, Result, Status
from conformance.runner import RunSummary
from conformance.verify import KINDS
from conformance.verify import strategies as gen
from conformance.verify.checks import (
    Finding,
    FindingKind,
    MoveKey,
    check_captured_squares,
    check_optimality,
    check_result,
    check_soundness,
    check_symmetry,
    mirror_move,
    move_text,
    position_after,
    quiet_moves,
    read_moves,
    verify_position,
)
from conformance.verify.differential import (
    compare_after,
    compare_legal_moves,
    compare_outcome,
    outcome_articles,
    outcome_json,
    random_game,
)
from conformance.verify.jumps import capture_graphs
from conformance.verify.smt import DEFAULT_TIMEOUT_MS, CaptureSolver, SolverUnknownError, VerifyError
from oracle.board import BIT, row_of
from oracle.errors import GameOverError, MoveError
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.notation import pdn_text
from oracle.position import Color, Kind, Position

OUTCOME_KINDS: Final = frozenset({"endgames"})
"""The kinds whose positions also get a random game and the outcome question."""

_GENERATORS: Final[Mapping[str, Callable[[gen.Chooser], Position]]] = {
    "random": gen.random_position,
    # One in four is a man capturing onto its far row (4.15), which the others rarely give.
    "captures": lambda chooser: (
        gen.far_row_capture_position(chooser)
        if chooser.integer(0, 3) == 0
        else gen.capture_rich_position(chooser)
    ),
    "chains": lambda chooser: gen.long_chain_position(chooser, 3, 12),
    "endgames": gen.endgame_position,
    "playouts": lambda chooser: gen.playout(chooser, 80),
}

# The checks, in the order their rows appear for a position.
Z3: Final = "legal_moves[z3]"
INVARIANTS: Final = "legal_moves[invariants]"
ORACLE: Final = "legal_moves[oracle]"
SYMMETRY: Final = "symmetry"
AFTER_INVARIANTS: Final = "after[invariants]"
AFTER_ORACLE: Final = "after[oracle]"
OUTCOME: Final = "outcome[oracle]"
CHOSEN_Z3: Final = "choose_move[z3]"
CHOSEN_ORACLE: Final = "choose_move[oracle]"

SHRINK_ORDER: Final = (
    INVARIANTS,
    ORACLE,
    Z3,
    SYMMETRY,
    CHOSEN_ORACLE,
    CHOSEN_Z3,
    AFTER_INVARIANTS,
    AFTER_ORACLE,
    OUTCOME,
)
"""Which failing check of a position is shrunk: the first failing one in this order (cheapest first)."""

_ANSWER_KINDS: Final = frozenset({FindingKind.MALFORMED, FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES})
"""Findings about the answer's form: reported by the invariants row, not again by the z3 row."""


def _articles_of(kinds: Iterable[FindingKind]) -> tuple[str, ...]:
    return tuple(sorted({a for kind in kinds for a in kind.articles}, key=article_sort_key))


CAPTURE_ARTICLES: Final = _articles_of(
    (FindingKind.SOUNDNESS, FindingKind.OPTIMALITY, FindingKind.COMPLETENESS, FindingKind.COMPULSORY_CAPTURE)
)
QUIET_ARTICLES: Final = FindingKind.QUIET_MOVES.articles
AFTER_ARTICLES: Final = _articles_of(
    (FindingKind.PIECE_COUNT, FindingKind.PROMOTION_ROW, FindingKind.PROMOTION, FindingKind.RESULT_POSITION)
)


# -- options and generated positions ------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class VerifyOptions:
    """What a ``verify`` run does. The defaults are the command line's."""

    examples: int = 100
    """How many positions to generate."""
    seed: int = 0
    kinds: tuple[str, ...] = KINDS
    z3: bool = True
    """Check the legal moves with z3 (``legal_moves[z3]``)."""
    z3_examples: int | None = None
    """With z3: only the first this many positions (None: all of them)."""
    differential: bool = True
    """Compare with the oracle (``legal_moves[oracle]``, ``after[oracle]``, ``outcome[oracle]``)."""
    z3_timeout_ms: int = DEFAULT_TIMEOUT_MS
    engine_timeout: float | None = 10.0
    """Seconds per request of an in-process engine (an alarm); None: no limit."""
    plays: int = 2
    """How many of a position's moves are played to check the position after them."""
    outcome_plies: int = 40
    """The longest random game whose outcome is asked (from the endgame positions)."""
    shrink: int = 5
    """How many disagreements are shrunk and described (one per check and finding kind)."""
    max_fail: int | None = None
    """Stop once this many positions failed or errored."""

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.kinds if kind not in KINDS]
        if unknown or not self.kinds:
            raise ValueError(
                f"unknown position kinds {unknown or '(none)'}; expected some of {', '.join(KINDS)}"
            )
        if self.examples < 0 or self.plays < 0 or self.outcome_plies < 0 or self.shrink < 0:
            raise ValueError("examples, plays, outcome_plies and shrink must be 0 or more")
        if self.z3_timeout_ms <= 0:
            raise ValueError(f"z3_timeout_ms must be positive, not {self.z3_timeout_ms}")

    def to_json(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "z3": self.z3,
            "z3_examples": self.z3_examples,
            "differential": self.differential,
            "z3_timeout_ms": self.z3_timeout_ms,
            "engine_timeout": self.engine_timeout,
            "plays": self.plays,
            "outcome_plies": self.outcome_plies,
            "max_fail": self.max_fail,
        }


@dataclasses.dataclass(frozen=True)
class Generated:
    """Position ``index`` of a run: its kind and the position."""

    seed: int
    index: int
    kind: str
    position: Position

    @property
    def case(self) -> str:
        """Its name in reports: ``verify-<seed>-<index>``."""
        return f"verify-{self.seed}-{self.index}"

    def rng(self, purpose: str) -> random.Random:
        """A random source of its own for one later choice (which moves to play, which game)."""
        return random.Random(f"draughts-conformance verify {self.seed} {self.index} {purpose}")


def generate(seed: int, index: int, kinds: Sequence[str] = KINDS) -> Generated:
    """Position ``index`` of the run with ``seed`` over ``kinds``: the same on every machine."""
    kind = kinds[index % len(kinds)]
    chooser = gen.RandomChooser(random.Random(f"draughts-conformance verify {seed} {index} {kind}"))
    return Generated(seed, index, kind, _GENERATORS[kind](chooser))


# -- asking the engine ------------------------------------------------------------------------------


class EngineTimeout(BaseException):
    """An in-process engine ran past its time (raised by the alarm; a BaseException so that an
    engine's own ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`EngineTimeout` in the block after ``seconds`` (main thread, POSIX; else no limit)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or seconds <= 0 or not usable:
        yield
        return

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise EngineTimeout(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _EngineFailed(Exception):
    """The engine did not answer: ``status`` error (it broke) or skip (it declined)."""

    def __init__(self, status: Status, message: str, error: ErrorInfo | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error = error


class _NotApplicable(Exception):
    """The check does not apply to this (shrunk) position, e.g. the move is no longer legal."""


def _in_process(info: EngineInfo) -> bool:
    return info.adapter == "in-process" or info.adapter.startswith("python:")


class Asker:
    """Asks one engine questions; turns what goes wrong into :class:`_EngineFailed`.

    Legal-move and play answers are remembered until :meth:`forget` (the checks of one position
    share them). In-process engines get ``timeout`` seconds per request (:func:`deadline`).
    """

    def __init__(self, engine: Engine, timeout: float | None) -> None:
        self.engine = engine
        self.capabilities = engine.info.capabilities
        self.timeout = timeout if _in_process(engine.info) else None
        self._moves: dict[str, list[MoveSpec] | _EngineFailed] = {}
        self._after: dict[tuple[str, tuple[str, ...]], str | _EngineFailed] = {}

    def forget(self) -> None:
        self._moves.clear()
        self._after.clear()

    def _call(self, what: str, function: Callable[[], Any]) -> Any:
        try:
            with deadline(self.timeout):
                return function()
        except EngineDeclined as declined:
            raise _EngineFailed(Status.SKIP, f"the engine declined {what}: {declined}") from None
        except EngineError as error:
            raise _EngineFailed(
                Status.ERROR, f"{what}: {error.message}", ErrorInfo(error.kind, error.message, error.stderr)
            ) from None
        except EngineTimeout as timeout:
            message = f"{what}: {timeout}"
            raise _EngineFailed(Status.ERROR, message, ErrorInfo("timeout", message)) from None
        except Exception as error:  # an in-process engine raised: its bug, reported, never fatal
            message = f"{what}: {type(error).__name__}: {error}"
            raise _EngineFailed(
                Status.ERROR, message, ErrorInfo("exception", message, traceback.format_exc())
            ) from None

    def _remembered(self, memory: dict[Any, Any], key: Any, ask: Callable[[], Any]) -> Any:
        """The answer to ``key``, asked once; a failure is remembered too (a time-out costs once)."""
        if key not in memory:
            try:
                memory[key] = ask()
            except _EngineFailed as failed:
                memory[key] = failed
        answer = memory[key]
        if isinstance(answer, _EngineFailed):
            raise answer
        return answer

    def legal_moves(self, fen: str) -> list[MoveSpec]:
        def ask() -> list[MoveSpec]:
            answer = self._call("legal_moves", lambda: list(self.engine.legal_moves(fen)))
            if not all(isinstance(move, MoveSpec) for move in answer):
                message = f"legal_moves: expected moves, got {answer!r}"
                raise _EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
            return list(answer)

        moves: list[MoveSpec] = self._remembered(self._moves, fen, ask)
        return moves

    def play(self, fen: str, moves: Sequence[str]) -> str:
        def ask() -> str:
            answer = self._call("play", lambda: self.engine.play(fen, list(moves)))
            if not isinstance(answer, str):
                message = f"play: expected a FEN string, got {answer!r}"
                raise _EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
            return answer

        after: str = self._remembered(self._after, (fen, tuple(moves)), ask)
        return after

    def outcome(self, fen: str, moves: Sequence[str]) -> dict[str, Any]:
        answer = self._call("outcome", lambda: self.engine.outcome(fen, {}, list(moves)))
        if not isinstance(answer, OutcomeAnswer):
            message = f"outcome: expected an OutcomeAnswer, got {answer!r}"
            raise _EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
        return outcome_json(answer.result, answer.rule, answer.ply)

    def choose_move(self, fen: str) -> MoveSpec | None:
        answer = self._call("choose_move", lambda: self.engine.choose_move(fen))
        if answer is not None and not isinstance(answer, MoveSpec):
            message = f"choose_move: expected a move or None, got {answer!r}"
            raise _EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
        return answer


# -- the checks ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Judgement:
    """What one check says about one answer: its findings (none = pass), expected vs got, articles."""

    findings: tuple[Finding, ...]
    articles: tuple[str, ...]
    expected: Any = None
    got: Any = None
    subject: Any = None
    """What the check was about besides the position: the move played, the move sequence."""

    @property
    def kind(self) -> FindingKind | None:
        return self.findings[0].kind if self.findings else None


def _key_texts(keys: Iterable[MoveKey]) -> list[str]:
    return [move_text(key) for key in sorted(keys, key=lambda key: (key[0], key[1], sorted(key[2])))]


def _spec_texts(moves: Iterable[MoveSpec]) -> list[str]:
    return _key_texts((move.from_square, move.to_square, move.captured) for move in moves)


def _can_capture(position: Position) -> bool:
    """Whether the side to move can jump at all (the verifier's own jump table, no z3 call)."""
    return bool(capture_graphs(position))


def legal_move_articles(position: Position) -> tuple[str, ...]:
    return CAPTURE_ARTICLES if _can_capture(position) else QUIET_ARTICLES


def z3_facts(solver: CaptureSolver) -> dict[str, Any]:
    """What z3 proves about the legal moves (or, without a capture, the rules' quiet moves)."""
    if not solver.can_capture:
        return {"moves": _key_texts(quiet_moves(solver.position))}
    m, _ = solver.maximum()
    return {"maximum": m, "moves": _key_texts(capture.key for capture in solver.maximal_captures())}


@dataclasses.dataclass
class Checks:
    """The checks, each a function of a position (and a subject) asking the engine afresh."""

    asker: Asker
    options: VerifyOptions
    _oracle: dict[Position, list[Move]] = dataclasses.field(default_factory=dict)

    def forget(self) -> None:
        """Forget the remembered answers (the engine's and the oracle's): a new position comes."""
        self.asker.forget()
        self._oracle.clear()

    def oracle_moves(self, position: Position) -> list[Move]:
        if position not in self._oracle:
            self._oracle[position] = legal_moves(position)
        return self._oracle[position]

    def legal_moves_z3(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        solver = CaptureSolver(position, self.options.z3_timeout_ms)
        findings = tuple(
            f for f in verify_position(position, answer, solver=solver) if f.kind not in _ANSWER_KINDS
        )
        articles = CAPTURE_ARTICLES if solver.can_capture else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(
            findings, _articles_of(f.kind for f in findings), z3_facts(solver), _spec_texts(answer)
        )

    def legal_moves_invariants(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        read, findings = read_moves(answer, position.fen())
        for item in read:
            findings += check_captured_squares(position, item.key, item.captured_list)
        if findings:
            return Judgement(
                tuple(findings),
                _articles_of(f.kind for f in findings),
                "each move readable and listed once; captured squares distinct, each an opposing piece",
                _spec_texts(answer),
            )
        kinds = [FindingKind.DUPLICATE]
        if any(move.captured for move in answer):
            kinds.append(FindingKind.CAPTURED_SQUARES)
        return Judgement((), _articles_of(kinds))

    def legal_moves_oracle(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        expected = self.oracle_moves(position)
        findings = tuple(compare_legal_moves(position, answer, expected))
        articles = CAPTURE_ARTICLES if any(m.captured for m in expected) else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(
            findings,
            _articles_of(f.kind for f in findings),
            _key_texts(m.key for m in expected),
            _spec_texts(answer),
        )

    def symmetry(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        mirrored = self.asker.legal_moves(position.mirror().fen())
        findings = tuple(
            f for f in check_symmetry(position, answer, mirrored) if f.kind is FindingKind.SYMMETRY
        )
        if not findings:
            return Judgement((), FindingKind.SYMMETRY.articles)
        flipped = (mirror_move((m.from_square, m.to_square, m.captured)) for m in answer)
        return Judgement(
            findings,
            FindingKind.SYMMETRY.articles,
            {"position": position.mirror().fen(), "moves": _key_texts(flipped)},
            {"position": position.mirror().fen(), "moves": _spec_texts(mirrored)},
        )

    def _oracle_move(self, position: Position, key: MoveKey) -> Move:
        for move in self.oracle_moves(position):
            if move.key == key:
                return move
        raise _NotApplicable(f"{move_text(key)} is not legal in {position.fen()}")

    def _text(self, position: Position, move: Move) -> str:
        """The move's PDN text; the full route when the engine lists another move with its start and end.

        The oracle's short text is unambiguous among the oracle's moves; an engine with other
        moves could read it as one of those, so it gets the route (always a valid PDN capture).
        """
        text = pdn_text(position, move)
        if not move.captured or text.count("x") > 1 or Capability.LEGAL_MOVES not in self.asker.capabilities:
            return text
        try:
            listed = self.asker.legal_moves(position.fen())
        except _EngineFailed:
            return text
        if any(
            (m.from_square, m.to_square) == (move.from_square, move.to_square) and m.captured != move.captured
            for m in listed
        ):
            return "x".join(map(str, move.route))
        return text

    def after_invariants(self, position: Position, subject: Any) -> Judgement:
        key: MoveKey = subject
        text = self._text(position, self._oracle_move(position, key))
        got = self.asker.play(position.fen(), [text])
        findings = tuple(check_result(position, key, got))
        if not findings:
            return Judgement((), AFTER_ARTICLES, subject=key)
        expected = {"moves": [text], "position": position_after(position, key).fen()}
        return Judgement(findings, _articles_of(f.kind for f in findings), expected, got, key)

    def after_oracle(self, position: Position, subject: Any) -> Judgement:
        key: MoveKey = subject
        move = self._oracle_move(position, key)
        text = self._text(position, move)
        got = self.asker.play(position.fen(), [text])
        oracle_after = play(position, move)
        findings = tuple(compare_after(position, key, got, oracle_after))
        if not findings:
            return Judgement((), AFTER_ARTICLES, subject=key)
        expected = {"moves": [text], "position": oracle_after.fen()}
        return Judgement(findings, _articles_of(f.kind for f in findings), expected, got, key)

    def outcome(self, position: Position, subject: Any) -> Judgement:
        moves: tuple[str, ...] = subject
        game = Game(position)
        try:
            for text in moves:
                game.play(text)
        except (MoveError, GameOverError) as error:
            raise _NotApplicable(f"the sequence cannot be played from {position.fen()}: {error}") from None
        result = game.outcome()
        expected = outcome_json(result.result.value, result.rule, result.ply)
        got = self.asker.outcome(position.fen(), moves)
        findings = tuple(compare_outcome(position, moves, expected, got))
        articles = outcome_articles(expected, got) if findings else outcome_articles(expected)
        if not findings:
            return Judgement((), articles, subject=moves)
        return Judgement(findings, articles, {"moves": list(moves), **expected}, got, moves)

    def chosen_z3(self, position: Position, subject: Any = None) -> Judgement:
        chosen = self.asker.choose_move(position.fen())
        solver = CaptureSolver(position, self.options.z3_timeout_ms)
        findings = self._chosen_findings(position, chosen, solver)
        articles = CAPTURE_ARTICLES if solver.can_capture else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(
            tuple(findings), _articles_of(f.kind for f in findings), z3_facts(solver), str(chosen)
        )

    @staticmethod
    def _chosen_findings(position: Position, chosen: MoveSpec | None, solver: CaptureSolver) -> list[Finding]:
        fen = position.fen()
        quiet = quiet_moves(position)
        if chosen is None:
            if solver.can_capture or quiet:
                kind = FindingKind.COMPULSORY_CAPTURE if solver.can_capture else FindingKind.QUIET_MOVES
                return [
                    Finding(kind, "the engine found no move, but the position has legal moves", {"fen": fen})
                ]
            return []
        key = (chosen.from_square, chosen.to_square, chosen.captured)
        if chosen.captured:
            return check_soundness(solver, {key}) + check_optimality(solver, {key})
        if solver.can_capture:
            return [
                Finding(
                    FindingKind.COMPULSORY_CAPTURE,
                    f"chose {chosen}, but capturing is compulsory",
                    {"fen": fen},
                )
            ]
        if key not in quiet:
            return [
                Finding(
                    FindingKind.QUIET_MOVES,
                    f"chose {chosen}, which is not a legal step or slide",
                    {"fen": fen},
                )
            ]
        return []

    def chosen_oracle(self, position: Position, subject: Any = None) -> Judgement:
        chosen = self.asker.choose_move(position.fen())
        expected = self.oracle_moves(position)
        articles = CAPTURE_ARTICLES if any(m.captured for m in expected) else QUIET_ARTICLES
        keys = {m.key for m in expected}
        if (chosen is None and not keys) or (
            chosen is not None and (chosen.from_square, chosen.to_square, chosen.captured) in keys
        ):
            return Judgement((), articles)
        answer = [] if chosen is None else [chosen]
        findings = compare_legal_moves(position, answer, expected)
        relevant = tuple(f for f in findings if f.kind is not FindingKind.COMPLETENESS) or tuple(findings)
        return Judgement(relevant, _articles_of(f.kind for f in relevant), _key_texts(keys), str(chosen))

    def function(self, check: str) -> Callable[[Position, Any], Judgement]:
        return {
            Z3: self.legal_moves_z3,
            INVARIANTS: self.legal_moves_invariants,
            ORACLE: self.legal_moves_oracle,
            SYMMETRY: self.symmetry,
            AFTER_INVARIANTS: self.after_invariants,
            AFTER_ORACLE: self.after_oracle,
            OUTCOME: self.outcome,
            CHOSEN_Z3: self.chosen_z3,
            CHOSEN_ORACLE: self.chosen_oracle,
        }[check]


# -- shrinking ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Shrunk:
    """The result of :func:`shrink_position`."""

    position: Position
    tries: int
    """How many candidate positions were checked."""
    minimal: bool
    """No single piece can be removed, and no king turned into a man, keeping the failure."""


def without(position: Position, square: int) -> Position:
    """``position`` with the piece on ``square`` taken off (still valid: nothing else moves)."""
    mask = ~BIT[square]
    return dataclasses.replace(
        position,
        white_men=position.white_men & mask,
        white_kings=position.white_kings & mask,
        black_men=position.black_men & mask,
        black_kings=position.black_kings & mask,
    )


def demoted(position: Position, square: int) -> Position | None:
    """``position`` with the king on ``square`` turned into a man, or None if a man may not stand there."""
    bit = BIT[square]
    for color in Color:
        if position.kings(color) & bit:
            if row_of(square) == color.promotion_row:
                return None
            if color is Color.WHITE:
                return dataclasses.replace(
                    position, white_kings=position.white_kings & ~bit, white_men=position.white_men | bit
                )
            return dataclasses.replace(
                position, black_kings=position.black_kings & ~bit, black_men=position.black_men | bit
            )
    return None


def shrink_position(
    position: Position, fails: Callable[[Position], bool], *, max_tries: int = 3000
) -> Shrunk:
    """A smaller position on which ``fails`` still holds: pieces removed, kings turned into men.

    Greedy and 1-minimal: passes over the pieces (in square order) take each off if the failure
    stays, then turn each king into a man if it stays, until a whole pass changes nothing --
    then no single piece is removable and no king demotable (``minimal``), unless ``max_tries``
    ran out first. ``fails`` raising counts as "does not fail" (the candidate is not kept).
    """
    current = position
    tries = 0

    def holds(candidate: Position) -> bool:
        nonlocal tries
        tries += 1
        try:
            return fails(candidate)
        except (Exception, EngineTimeout):
            return False

    while True:
        changed = False
        for square in [s for color in Color for s in current.squares(color)]:
            if tries >= max_tries:
                return Shrunk(current, tries, False)
            candidate = without(current, square)
            if holds(candidate):
                current, changed = candidate, True
        for square in [s for color in Color for s in current.squares(color, Kind.KING)]:
            if tries >= max_tries:
                return Shrunk(current, tries, False)
            demotion = demoted(current, square)
            if demotion is not None and holds(demotion):
                current, changed = demotion, True
        if not changed:
            return Shrunk(current, tries, True)


# -- a disagreement, described ---------------------------------------------------------------------


@functools.cache
def article_summaries() -> Mapping[str, str]:
    """Article -> our one-line summary, from cases/articles.yaml (empty when it cannot be read)."""
    try:
        import yaml

        data = yaml.safe_load((CORPUS_ROOT / "articles.yaml").read_text(encoding="utf-8"))
        return {str(article): str(text) for article, text in data.get("articles", {}).items()}
    except Exception:  # the summaries only decorate reports
        return {}


def _registry() -> frozenset[str]:
    return frozenset(article_summaries())


def _case_articles(articles: Iterable[str]) -> list[str]:
    registry = _registry()
    return [a for a in articles if not registry or a in registry]


def _folder(article: str) -> str:
    head = article.split(".")[0]
    matches = sorted(path.name for path in CORPUS_ROOT.glob(f"{head}-*") if path.is_dir())
    return f"cases/{matches[0]}/" if matches else "cases/"


def _yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _yaml_list(items: Iterable[str]) -> str:
    return "[" + ", ".join(_yaml_string(item) for item in items) + "]"


@dataclasses.dataclass(frozen=True)
class Disagreement:
    """A check that failed, shrunk to a minimal position, with a case ready to paste into ``cases/``."""

    case: str
    check: str
    kind: FindingKind
    seed: int
    original: Position
    shrunk: Shrunk
    judgement: Judgement
    """The check's judgement on the shrunk position (findings, expected vs got)."""
    case_yaml: str

    @property
    def position(self) -> Position:
        return self.shrunk.position

    def text(self) -> str:
        """FEN, board, findings, expected vs got, and the case: plain text for a terminal or a file."""
        position = self.position
        pieces = sum(position.count(color) for color in Color)
        before = sum(self.original.count(color) for color in Color)
        minimal = "" if self.shrunk.minimal else " (not minimal: the shrinker ran out of tries)"
        source = {Z3: "z3", CHOSEN_Z3: "z3", ORACLE: "oracle", AFTER_ORACLE: "oracle", OUTCOME: "oracle"}
        label = source.get(self.check, "rules")
        lines = [
            f"== disagreement: {self.case} {self.check}: {self.kind.value} (Art. {', '.join(self.kind.articles)})",
            f"generated position {self.original.fen()} ({before} pieces), shrunk in {self.shrunk.tries} "
            f"tries to {pieces} pieces{minimal}:",
            f"FEN {position.fen()}",
            position.diagram(),
        ]
        if self.judgement.subject is not None:
            subject = self.judgement.subject
            what = move_text(subject) if self.check.startswith("after") else " ".join(subject) or "(no move)"
            lines.append(f"played: {what}")
        lines += [f"  {finding}" for finding in self.judgement.findings]
        expected = f"expected ({label}):"
        lines.append(f"{expected} {_as_text(self.judgement.expected)}")
        lines.append(f"{'got (engine):':{len(expected)}} {_as_text(self.judgement.got)}")
        case = yaml_id_article(self.case_yaml)
        folder = _folder(case) if case else "cases/"
        lines.append(f"ready-to-paste case for {folder} (work its expectation out by hand first):")
        lines.append(self.case_yaml)
        return "\n".join(lines)


def yaml_id_article(case: str) -> str | None:
    """The article in a generated case's id (``verify-<article>-<hash>``), or None."""
    for line in case.splitlines():
        text = line.strip()
        if text.startswith("- id: verify-"):
            article = text.removeprefix("- id: verify-").rsplit("-", 1)[0]
            return None if article == "x" else article
    return None


def _as_text(value: Any) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def case_yaml(
    check: str, kind: FindingKind, judgement: Judgement, position: Position, seed: int, timeout_ms: int
) -> str:
    """A case for ``cases/`` (YAML, indented for a file's ``cases:`` list) with a TODO expectation.

    The suggested expectation never comes from the oracle: legal moves from the SMT enumeration
    (the proved maximum and every capture taking it) or, without a capture, the men's steps and
    kings' slides of :func:`~conformance.verify.checks.quiet_moves`; a position after a move
    from the rules' arithmetic (:func:`~conformance.verify.checks.position_after`); an outcome
    is left entirely to the author.
    """
    reading = None
    if kind is FindingKind.DUPLICATE:  # a move listed twice: the move-identity reading of 4.13
        articles, reading = ["4.13"], "move-identity"
    elif kind in (FindingKind.SYMMETRY, FindingKind.MALFORMED):  # about the legal moves as a whole
        articles = _case_articles(legal_move_articles(position))
    else:
        articles = _case_articles(judgement.articles or kind.articles)
    digest = hashlib.sha256(f"{check} {position.fen()} {judgement.subject!r}".encode()).hexdigest()[:8]
    article = articles[0] if articles else "x"
    lines = [
        f"  # Found by draughts-conformance verify (seed {seed}), check {check}: {kind.value}.",
        "  # TODO: work out the expectation by hand from the rules (docs/rules.md), write the derivation here,",
        "  # then remove these TODO lines; the description too.",
        f"  - id: verify-{article}-{digest}",
    ]
    if articles:
        lines.append(f"    articles: {_yaml_list(articles)}")
    if reading:
        lines.append(f"    interpretation: {{reading: {reading}}}")
    lines += [
        f"    description: {_yaml_string('TODO: one line saying what an engine must get right here')}",
        f"    source: {_yaml_string(f'found by draughts-conformance verify (seed {seed})')}",
        f"    position: {_yaml_string(position.fen())}",
        "    expect:",
    ]
    if check.startswith("after"):
        key: MoveKey = judgement.subject
        short = f"{key[0]}{'x' if key[2] else '-'}{key[1]}"  # PDN; the route is needed if ambiguous
        text = (judgement.expected or {}).get("moves", [short])[0]
        lines += [
            "      # TODO: work out by hand. Suggested: the rules' arithmetic (before - captured, the piece",
            "      # moved, crowned only when a man ends on the far row), not the oracle.",
            "      after:",
            f"        - moves: {_yaml_list([text])}",
            f"          position: {_yaml_string(position_after(position, key).fen())}",
        ]
    elif check == OUTCOME:
        moves: Sequence[str] = judgement.subject
        lines += [
            "      # TODO: work out by hand (docs/rules.md, Art. 6 and 7): the result, the deciding rule, the ply.",
            "      outcome:",
            f"        moves: {_yaml_list(moves)}",
            "        result: TODO",
            "        rule: TODO",
            "        ply: TODO",
        ]
    else:
        lines += ["      " + line for line in _suggested_moves(position, timeout_ms)]
    return "\n".join(lines)


def _suggested_moves(position: Position, timeout_ms: int) -> list[str]:
    solver = CaptureSolver(position, timeout_ms)
    try:
        facts = z3_facts(solver)
    except VerifyError as error:
        return [f"# TODO: work out by hand (z3 gave no answer: {error})", "legal_moves: []"]
    if solver.can_capture:
        comment = [
            f"# TODO: work out by hand. Suggested by z3, not by the oracle: the most any capture takes is"
            f" {facts['maximum']}",
            f"# (a capture of {facts['maximum']} exists, none of {facts['maximum'] + 1}), and these are every"
            " capture taking that many.",
        ]
    else:
        comment = [
            "# TODO: work out by hand. Suggested: no capture exists (the verifier's jump table is empty), so",
            "# the men's steps and the kings' slides (conformance.verify.checks.quiet_moves), not the oracle.",
        ]
    return [*comment, f"legal_moves: {_yaml_list(facts['moves'])}"]


# -- the run --------------------------------------------------------------------------------------


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def verify_header(info: EngineInfo, options: VerifyOptions) -> dict[str, Any]:
    """The first line of a verify report: a ``kind: verify`` marker, the seed and N, the engine."""
    return {
        "type": "header",
        "kind": "verify",
        "suite": "draughts-conformance",
        "suite_version": __version__,
        "protocol": PROTOCOL_VERSION,
        "seed": options.seed,
        "examples": options.examples,
        "verify": options.to_json(),
        "engine": {
            "name": info.name,
            "version": info.version,
            "adapter": info.adapter,
            "level": info.level,
            "capabilities": sorted(c.value for c in info.capabilities),
        },
        "started": _now(),
    }


@dataclasses.dataclass
class VerifyRun:
    """Everything a run produced: the report lines, the summary, the shrunk disagreements."""

    header: dict[str, Any]
    results: list[Result]
    footer: dict[str, Any]
    summary: RunSummary
    disagreements: list[Disagreement]
    positions: int
    """How many positions were checked (fewer than asked when stopped by ``max_fail``)."""
    first_failure: int | None
    """The index of the first position with a failing check (None: none failed)."""

    @property
    def report(self) -> Report:
        return Report(self.header, self.results, self.footer)

    @property
    def exit_status(self) -> int:
        return self.summary.exit_status


@dataclasses.dataclass(frozen=True)
class _Row:
    check: str
    result: Result
    judgement: Judgement | None


class _Driver:
    def __init__(self, engine: Engine, options: VerifyOptions) -> None:
        self.options = options
        self.asker = Asker(engine, options.engine_timeout)
        self.checks = Checks(self.asker, options)
        self.capabilities = engine.info.capabilities

    def rows(self, generated: Generated) -> list[_Row]:
        """Every check of one position, in report order."""
        self.checks.forget()
        options = self.options
        rows: list[_Row] = []
        can = self.capabilities.__contains__
        with_z3 = options.z3 and (options.z3_examples is None or generated.index < options.z3_examples)
        if can(Capability.LEGAL_MOVES) or not can(Capability.CHOOSE_MOVE):
            checks = [
                *([Z3] if with_z3 else []),
                INVARIANTS,
                *([ORACLE] if options.differential else []),
                SYMMETRY,
            ]
            for check in checks:
                rows.append(self.row(generated, check, Capability.LEGAL_MOVES, [None]))
        else:  # a move-choice engine (Hub, DXP): its chosen move is judged
            for check in [
                *([CHOSEN_Z3] if with_z3 else []),
                *([CHOSEN_ORACLE] if options.differential else []),
            ]:
                rows.append(self.row(generated, check, Capability.CHOOSE_MOVE, [None]))
        played = self.moves_to_play(generated) if options.plays else []
        if played:  # nothing to play (no legal move, or none the engine lists): no after rows
            for check in [AFTER_INVARIANTS, *([AFTER_ORACLE] if options.differential else [])]:
                rows.append(self.row(generated, check, Capability.PLAY, played))
        if options.differential and generated.kind in OUTCOME_KINDS and options.outcome_plies:
            rows.append(self.row(generated, OUTCOME, Capability.OUTCOME, self.sequences(generated)))
        return rows

    def moves_to_play(self, generated: Generated) -> list[MoveKey]:
        """A sample of the oracle's moves (the same whatever the engine), kept if the engine lists them too.

        The oracle only provides the move text (notation), never the judgement of ``after[invariants]``.
        """
        moves = sorted(
            (m.key for m in self.checks.oracle_moves(generated.position)),
            key=lambda k: (k[0], k[1], sorted(k[2])),
        )
        sample = generated.rng("plays").sample(moves, min(self.options.plays, len(moves)))
        if Capability.LEGAL_MOVES not in self.capabilities:
            return sample
        try:
            listed = {
                (m.from_square, m.to_square, m.captured)
                for m in self.asker.legal_moves(generated.position.fen())
            }
        except _EngineFailed:
            return sample
        return [key for key in sample if key in listed]

    def sequences(self, generated: Generated) -> list[tuple[str, ...]]:
        """A random game's moves; when it ends, also the moves but the last (still going on)."""
        game = random_game(generated.position, generated.rng("game"), self.options.outcome_plies)
        moves = tuple(game.move_texts())
        return [moves, moves[:-1]] if game.is_over and moves else [moves]

    def row(self, generated: Generated, check: str, capability: Capability, subjects: Sequence[Any]) -> _Row:
        position = generated.position
        base: dict[str, Any] = {"case": generated.case, "question": check, "position": position.fen()}
        default = self.default_articles(check, position)
        if capability not in self.capabilities:
            result = Result(
                **base,
                articles=default,
                status=Status.UNSUPPORTED,
                message=f"engine lacks {capability.value}",
            )
            return _Row(check, result, None)
        function = self.checks.function(check)
        started = time.perf_counter()
        judgements: list[Judgement] = []
        try:
            for subject in subjects:
                judgement = function(position, subject)
                judgements.append(judgement)
                if judgement.findings:
                    break
        except _EngineFailed as failed:
            result = Result(
                **base,
                articles=default,
                status=failed.status,
                message=failed.message,
                error=failed.error,
                duration_ms=(time.perf_counter() - started) * 1000,
            )
            return _Row(check, result, None)
        except (VerifyError, _NotApplicable) as error:
            kind = "z3-unknown" if isinstance(error, SolverUnknownError) else "verifier"
            message = f"{check}: {error}"
            result = Result(
                **base,
                articles=default,
                status=Status.ERROR,
                message=message,
                error=ErrorInfo(kind, message),
                duration_ms=(time.perf_counter() - started) * 1000,
            )
            return _Row(check, result, None)
        duration = (time.perf_counter() - started) * 1000
        failing = next((j for j in judgements if j.findings), None)
        if failing is None:
            articles = (
                tuple(sorted({a for j in judgements for a in j.articles}, key=article_sort_key)) or default
            )
            return _Row(
                check, Result(**base, articles=articles, status=Status.PASS, duration_ms=duration), None
            )
        message = "; ".join(str(f) for f in failing.findings[:4])
        if len(failing.findings) > 4:
            message += f"; and {len(failing.findings) - 4} more"
        result = Result(
            **base,
            articles=failing.articles,
            status=Status.FAIL,
            message=message,
            expected=failing.expected,
            got=failing.got,
            duration_ms=duration,
        )
        return _Row(check, result, failing)

    def default_articles(self, check: str, position: Position) -> tuple[str, ...]:
        if check in (Z3, ORACLE, CHOSEN_Z3, CHOSEN_ORACLE):
            return legal_move_articles(position)
        if check == INVARIANTS:
            return _articles_of((FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES))
        if check == SYMMETRY:
            return FindingKind.SYMMETRY.articles
        if check in (AFTER_INVARIANTS, AFTER_ORACLE):
            return AFTER_ARTICLES
        return FindingKind.OUTCOME.articles

    def shrink(self, generated: Generated, row: _Row) -> Disagreement:
        """Shrink the failing ``row``'s position, keeping its check and finding kind."""
        assert row.judgement is not None
        assert row.judgement.kind is not None
        kind = row.judgement.kind
        subject = row.judgement.subject
        function = self.checks.function(row.check)

        def fails(candidate: Position) -> bool:
            self.checks.forget()
            return kind in {f.kind for f in function(candidate, subject).findings}

        shrunk = shrink_position(generated.position, fails)
        self.checks.forget()
        try:
            judgement = function(shrunk.position, subject)
        except Exception:  # cannot happen for a kept candidate unless the engine is erratic
            judgement = row.judgement
            shrunk = Shrunk(generated.position, shrunk.tries, False)
        if not judgement.findings:
            judgement, shrunk = row.judgement, Shrunk(generated.position, shrunk.tries, False)
        text = case_yaml(
            row.check, kind, judgement, shrunk.position, generated.seed, self.options.z3_timeout_ms
        )
        return Disagreement(
            generated.case, row.check, kind, generated.seed, generated.position, shrunk, judgement, text
        )


def verify(
    factory: Callable[[], Engine],
    options: VerifyOptions,
    writer: ReportWriter | None = None,
    *,
    engine: Engine | None = None,
    progress: Callable[[int], None] | None = None,
    on_disagreement: Callable[[Disagreement], None] | None = None,
) -> VerifyRun:
    """Run ``options.examples`` generated positions through the engine.

    The report stream goes to ``writer`` as it is produced (header, one line per result,
    footer); ``engine``, if given, is used instead of a new one from ``factory`` (the caller
    started it already). The engine is closed at the end.
    """
    started = time.perf_counter()
    engine = engine or factory()
    writer = writer or ReportWriter(None)
    try:
        header = verify_header(engine.info, options)
        writer.write(header)
        driver = _Driver(engine, options)
        results: list[Result] = []
        counts: Counter[str] = Counter()
        disagreements: list[Disagreement] = []
        shrunk_kinds: set[tuple[str, FindingKind]] = set()
        failing_positions = 0
        first_failure: int | None = None
        stopped = False
        done = 0
        order = {check: n for n, check in enumerate(SHRINK_ORDER)}
        for index in range(options.examples):
            generated = generate(options.seed, index, options.kinds)
            rows = driver.rows(generated)
            failed = sorted(
                (row for row in rows if row.judgement is not None), key=lambda row: order[row.check]
            )
            if failed and first_failure is None:
                first_failure = index
            for row in failed if len(disagreements) < options.shrink else ():
                assert row.judgement is not None
                assert row.judgement.kind is not None
                if (row.check, row.judgement.kind) in shrunk_kinds:
                    continue
                shrunk_kinds.add((row.check, row.judgement.kind))
                disagreement = driver.shrink(generated, row)
                disagreements.append(disagreement)
                note = f"{row.result.message} (shrunk to {disagreement.position.fen()})"
                shrunk_row = _Row(row.check, dataclasses.replace(row.result, message=note), row.judgement)
                rows = [shrunk_row if r is row else r for r in rows]
                if on_disagreement is not None:
                    on_disagreement(disagreement)
                break  # one disagreement per position
            for row in rows:
                results.append(row.result)
                counts[row.result.status.value] += 1
                writer.result(row.result)
            done = index + 1
            if progress is not None:
                progress(done)
            if any(row.result.status in (Status.FAIL, Status.ERROR) for row in rows):
                failing_positions += 1
                if options.max_fail is not None and failing_positions >= options.max_fail:
                    stopped = done < options.examples
                    break
    finally:
        engine.close()
    summary = RunSummary(counts, 0, [], stopped, time.perf_counter() - started)
    footer = summary.to_json() | {"positions": done, "first_failure": first_failure}
    writer.write(footer)
    return VerifyRun(header, results, footer, summary, disagreements, done, first_failure)
