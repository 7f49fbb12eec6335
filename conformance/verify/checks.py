"""Checks of an engine's answer for one position: plain functions returning findings.

Each check takes what an engine answered (a list of legal moves as (from, to, captured) --
tuples, :class:`oracle.moves.Move` or anything with ``from_square``, ``to_square`` and
``captured``) and returns a list of :class:`Finding`; an empty list means the check passed.
Nothing here decides pass/fail or talks to an engine: the harness does, filing each finding
under the articles of its :class:`FindingKind`.

* :func:`verify_position` -- everything about one legal-move answer: the SMT checks of the
  captures (soundness, optimality, completeness: :mod:`conformance.verify.smt`), compulsory
  capture, the quiet moves when there is no capture, and the captured squares of each move.
* :mod:`conformance.verify.after` -- one move and the position the engine says it leads to
  (:func:`~conformance.verify.after.check_result`), and that position by the rules' arithmetic.
* :func:`check_symmetry` -- the legal moves of a position and of its colour-flipped twin.

A solver time-out raises :class:`~conformance.verify.capture_formula.SolverUnknownError`: it is an error
of the verification, never a pass and never a finding against the engine.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, runtime_checkable

from conformance.verify.capture_formula import DEFAULT_TIMEOUT_MS, VerifyError
from conformance.verify.smt import CaptureSolver
from oracle.board import NORTHWARD, SOUTHWARD, Direction
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, Rules

MoveKey = tuple[int, int, frozenset[int]]
"""A move as the rules identify it: (from, to, set of captured squares) (rules.md, Art. 8)."""


class FindingKind(enum.Enum):
    """What a finding is about; :attr:`articles` are the FMJD articles it concerns."""

    MALFORMED = "malformed"
    """A move of the answer cannot be read (square outside 1-50, not a number...)."""
    DUPLICATE = "duplicate"
    """The same (from, to, captured) move is listed twice (rules.md: routes are not moves)."""
    SOUNDNESS = "soundness"
    """A listed capture cannot be played: no route has that start, end and captured set."""
    OPTIMALITY = "optimality"
    """A capture takes more pieces than the engine's, or a listed capture is not a maximum one."""
    COMPLETENESS = "completeness"
    """A maximum capture is missing from the answer."""
    COMPULSORY_CAPTURE = "compulsory-capture"
    """A capture exists but the answer offers a move that is not one."""
    QUIET_MOVES = "quiet-moves"
    """No capture exists and the answer's moves differ from the men's steps and the kings' slides."""
    CAPTURED_SQUARES = "captured-squares"
    """A move's captured squares repeat, or one of them holds no opposing piece."""
    PIECE_COUNT = "piece-count"
    """The pieces after a move are not the pieces before minus the captured ones."""
    PROMOTION_ROW = "promotion-row"
    """After a move a man stands on its own promotion row (it should have been crowned)."""
    PROMOTION = "promotion"
    """A man was crowned without ending on the far row, or ended there and was not crowned."""
    RESULT_POSITION = "result-position"
    """The position after a move is otherwise wrong (the piece, or the side to move)."""
    SYMMETRY = "symmetry"
    """The legal moves of the colour-flipped position are not the flipped legal moves."""
    OUTCOME = "outcome"
    """The result, deciding rule or ply of a game differs (only the differential checks give it)."""
    START_POSITION = "start-position"
    """A new game's position is not Art. 2.8's: Black's men on 1-20, White's on 31-50, White to move."""

    @property
    def articles(self) -> tuple[str, ...]:
        return _ARTICLES[self]

    def describe(self) -> str:
        """The defect in a few words, the same for every finding of this kind (reports group by it)."""
        return _DEFECTS[self]


_DEFECTS: Final[Mapping[FindingKind, str]] = types.MappingProxyType(
    {
        FindingKind.MALFORMED: "answers a move that cannot be read",
        FindingKind.DUPLICATE: "lists one move twice (several routes)",
        FindingKind.SOUNDNESS: "lists a capture no route makes",
        FindingKind.OPTIMALITY: "lists a capture below the maximum",
        FindingKind.COMPLETENESS: "misses a maximum capture",
        FindingKind.COMPULSORY_CAPTURE: "offers a move that is not a capture where one exists",
        FindingKind.QUIET_MOVES: "wrong moves without a capture",
        FindingKind.CAPTURED_SQUARES: "names captured squares wrongly",
        FindingKind.PIECE_COUNT: "wrong pieces after a capture",
        FindingKind.PROMOTION_ROW: "leaves a man on its promotion row",
        FindingKind.PROMOTION: "crowns wrongly",
        FindingKind.RESULT_POSITION: "wrong position after a move",
        FindingKind.SYMMETRY: "differs on the colour-flipped position",
        FindingKind.OUTCOME: "wrong game outcome",
        FindingKind.START_POSITION: "wrong start position",
    }
)

_ARTICLES: Final[Mapping[FindingKind, tuple[str, ...]]] = types.MappingProxyType(
    {
        FindingKind.MALFORMED: ("8",),
        FindingKind.DUPLICATE: ("8",),
        FindingKind.SOUNDNESS: ("4.1", "4.3", "4.5", "4.6", "4.8", "4.11", "4.15"),
        FindingKind.OPTIMALITY: ("4.13",),
        FindingKind.COMPLETENESS: ("4.13", "4.14"),
        FindingKind.COMPULSORY_CAPTURE: ("4.2",),
        FindingKind.QUIET_MOVES: ("3.4", "3.9"),
        FindingKind.CAPTURED_SQUARES: ("4.1", "4.3", "4.8"),
        FindingKind.PIECE_COUNT: ("4.11",),
        FindingKind.PROMOTION_ROW: ("3.5",),
        FindingKind.PROMOTION: ("3.5", "4.15"),
        FindingKind.RESULT_POSITION: ("3", "4"),
        FindingKind.SYMMETRY: ("2", "3", "4"),
        FindingKind.OUTCOME: ("6.1", "6.2", "6.3", "6.4", "7.2"),
        FindingKind.START_POSITION: ("2.8",),
    }
)


@dataclasses.dataclass(frozen=True)
class Finding:
    """One thing wrong with an engine's answer: its kind, a sentence, and the data behind it.

    ``detail`` holds plain JSON-able values (ints, strings, lists): the FEN, the move, the
    witness route, the expected and the given sets.
    """

    kind: FindingKind
    message: str
    detail: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)
    filed: tuple[str, ...] = dataclasses.field(default=(), hash=False, compare=False)
    """The rule(s) this one finding concerns, when narrower than its kind's (an outcome: one)."""

    @property
    def articles(self) -> tuple[str, ...]:
        return self.filed or self.kind.articles

    def __str__(self) -> str:
        return f"[{self.kind.value}, Art. {', '.join(self.articles)}] {self.message}"


@runtime_checkable
class MoveObject(Protocol):
    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    @property
    def captured(self) -> Iterable[int]: ...


MoveLike = MoveObject | tuple[int, int, Iterable[int]] | Sequence[Any]
"""What an answer's moves may be: (from, to, captured) tuples or objects with those attributes."""


# -- reading an answer ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ReadMove:
    key: MoveKey
    captured_list: tuple[int, ...]


def move_text(key: MoveKey) -> str:
    """``32-28`` or ``28x19 {23}``: the (from, to, captured) form used in findings."""
    from_square, to_square, captured = key
    if not captured:
        return f"{from_square}-{to_square}"
    return f"{from_square}x{to_square} {{{','.join(map(str, sorted(captured)))}}}"


def read_move(move: object, board_squares: int = 50) -> ReadMove | str:
    """The move's key, or why it cannot be read (``board_squares``: how many the board has)."""
    # What isinstance(move, MoveObject) checks, without the runtime protocol's cost (~50 us a call).
    if all(hasattr(move, name) for name in ("from_square", "to_square", "captured")):
        move = typing.cast(MoveObject, move)
        parts: tuple[object, object, object] = (move.from_square, move.to_square, move.captured)
    elif isinstance(move, Sequence) and not isinstance(move, str) and len(move) == 3:
        parts = (move[0], move[1], move[2])
    else:
        return f"{move!r} is not a (from, to, captured) move"
    from_square, to_square, captured = parts
    if isinstance(captured, (str, bytes)) or not isinstance(captured, Iterable):
        return f"{move!r}: captured squares {captured!r} are not a collection of squares"
    squares: list[int] = []
    for square in (from_square, to_square, *captured):
        if not isinstance(square, int) or isinstance(square, bool):
            return f"{move!r}: {square!r} is not a square number"
        if not 1 <= square <= board_squares:
            return f"{move!r}: square {square} is outside 1-{board_squares}"
        squares.append(square)
    captured_list = tuple(squares[2:])
    key = (squares[0], squares[1], frozenset(captured_list))
    return ReadMove(key, captured_list)


def read_moves(
    moves: Iterable[object], fen: str = "", squares: int = 50
) -> tuple[list[ReadMove], list[Finding]]:
    """The readable moves of an answer, and findings for the unreadable and repeated ones."""
    findings: list[Finding] = []
    read: list[ReadMove] = []
    for move in moves:
        result = read_move(move, squares)
        if isinstance(result, str):
            findings.append(Finding(FindingKind.MALFORMED, result, {"fen": fen, "move": repr(move)}))
        else:
            read.append(result)
    counts = Counter(item.key for item in read)
    for key, count in sorted(counts.items(), key=lambda item: _sort_key(item[0])):
        if count > 1:
            findings.append(
                Finding(
                    FindingKind.DUPLICATE,
                    f"{move_text(key)} is listed {count} times; a move is (from, to, captured), routes do not count",
                    {"fen": fen, "move": move_text(key), "count": count},
                )
            )
    return read, findings


def _sort_key(key: MoveKey) -> tuple[int, int, list[int]]:
    return (key[0], key[1], sorted(key[2]))


def _texts(keys: Iterable[MoveKey]) -> list[str]:
    return [move_text(key) for key in sorted(keys, key=_sort_key)]


# -- the legal-move answer ------------------------------------------------------------------------


def verify_position(
    fen: str | Position,
    moves: Iterable[object],
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    solver: CaptureSolver | None = None,
) -> list[Finding]:
    """Every check of one legal-move answer (Art. 3, 4): an empty list when it is right.

    With a capture on the board: each listed capture is realisable (soundness), none takes
    fewer pieces than the most a capture can take and none can take more (optimality, by an
    UNSAT proof), every maximum capture is listed (completeness), and nothing else is
    (compulsory capture). Without: the moves are exactly the men's steps and kings' slides.
    Always: every move readable and listed once, captured squares distinct and the opponent's.

    Raises :class:`oracle.errors.FenError` for a bad FEN and
    :class:`~conformance.verify.capture_formula.SolverUnknownError` when z3 cannot answer in time.
    """
    position = fen if isinstance(fen, Position) else Position.from_fen(fen)
    fen_text = position.fen()
    read, findings = read_moves(moves, fen_text, position.geometry.square_count)
    keys = {item.key for item in read}
    for item in read:
        findings += check_captured_squares(position, item.key, item.captured_list)
    solver = solver or CaptureSolver(position, timeout_ms)
    if solver.position != position:
        raise ValueError(f"the solver is for {solver.position.fen()}, not {fen_text}")
    if solver.can_capture:
        findings += check_captures(solver, keys)
    else:
        findings += check_soundness(solver, {key for key in keys if key[2]})
        findings += check_quiet_moves(position, keys, solver.rules)
    return findings


def check_captures(solver: CaptureSolver, moves: Iterable[MoveKey]) -> list[Finding]:
    """Soundness, optimality, completeness and compulsory capture of an answer (Art. 4.2-4.15)."""
    keys = set(moves)
    fen = solver.position.fen()
    captures = {key for key in keys if key[2]}
    findings = check_completeness(solver, captures)  # first: its witnesses make soundness cheap
    if solver.rules.capture_choice is CaptureChoice.MAXIMUM:  # free choice: no capture takes too few
        findings = check_optimality(solver, captures) + findings
    findings = check_soundness(solver, captures) + findings
    m, witness = solver.maximum()
    quiet = keys - captures
    if m > 0 and (quiet or not captures):
        if witness is None:
            raise VerifyError(f"internal: a maximum of {m} without a witness in {fen}")
        what = f"offers {', '.join(_texts(quiet))}" if quiet else "offers no capture"
        findings.append(
            Finding(
                FindingKind.COMPULSORY_CAPTURE,
                f"capturing is compulsory but the answer {what}; e.g. {move_text(witness.capture.key)} "
                f"(route {'-'.join(map(str, witness.route))})",
                {"fen": fen, "non_captures": _texts(quiet), "witness_route": list(witness.route)},
            )
        )
    return findings


def check_soundness(solver: CaptureSolver, captures: Iterable[MoveKey]) -> list[Finding]:
    """Each capture is realisable with exactly its start, end and captured set, and complete.

    A capture is complete when its piece cannot jump again from where it ends (4.5, 4.6).
    """
    findings: list[Finding] = []
    position = solver.position
    fen = position.fen()
    for key in sorted(captures, key=_sort_key):
        from_square, to_square, captured = key
        detail: dict[str, Any] = {"fen": fen, "move": move_text(key)}
        piece = position.piece_at(from_square)
        if piece is None or piece.color is not position.turn:
            whose = "is empty" if piece is None else f"holds a {piece.color} {piece.kind.value}"
            findings.append(
                Finding(
                    FindingKind.SOUNDNESS,
                    f"{move_text(key)} starts on {from_square}, which {whose}, not a piece of the side to move",
                    detail,
                )
            )
            continue
        witness = solver.realise(from_square, to_square, captured)
        if witness is None:
            m, _ = solver.maximum()
            why = f"the most any capture takes is {m}" if m else "no capture exists in this position"
            findings.append(
                Finding(
                    FindingKind.SOUNDNESS,
                    f"no capture by the {piece.kind.value} on {from_square} ends on {to_square} taking exactly "
                    f"{{{','.join(map(str, sorted(captured)))}}} ({why})",
                    detail,
                )
            )
        elif not solver.is_complete(from_square, to_square, captured):
            detail["route"] = list(witness.route)
            findings.append(
                Finding(
                    FindingKind.SOUNDNESS,
                    f"{move_text(key)} stops on {to_square} though the capture can go on from there (4.5, 4.6)",
                    detail,
                )
            )
    return findings


def check_optimality(solver: CaptureSolver, captures: Iterable[MoveKey]) -> list[Finding]:
    """No capture takes more pieces than the answer's, and every listed capture takes the most (4.13).

    The solver proves the maximum ``m`` (a model for ``m``, UNSAT for ``m + 1``). Nothing is
    reported when the answer lists no capture (see compulsory capture and completeness).
    """
    keys = sorted(captures, key=_sort_key)
    if not keys:
        return []
    m, witness = solver.maximum()
    fen = solver.position.fen()
    findings: list[Finding] = []
    most = max(len(key[2]) for key in keys)
    if m > most and witness is not None:
        findings.append(
            Finding(
                FindingKind.OPTIMALITY,
                f"a capture takes {m} pieces but the answer's captures take at most {most}: "
                f"{move_text(witness.capture.key)} (route {'-'.join(map(str, witness.route))})",
                {"fen": fen, "maximum": m, "answer_maximum": most, "witness_route": list(witness.route)},
            )
        )
    for key in keys:
        if len(key[2]) < m:
            findings.append(
                Finding(
                    FindingKind.OPTIMALITY,
                    f"{move_text(key)} takes {len(key[2])} pieces; the maximum capture takes {m} (4.13)",
                    {"fen": fen, "move": move_text(key), "maximum": m},
                )
            )
    return findings


def check_completeness(solver: CaptureSolver, captures: Iterable[MoveKey]) -> list[Finding]:
    """Every legal capture the solver enumerates is in the answer: the maximum ones (4.13, 4.14),
    or every complete one under a rule set's free choice."""
    listed = set(captures)
    fen = solver.position.fen()
    findings: list[Finding] = []
    which = "maximum" if solver.rules.capture_choice is CaptureChoice.MAXIMUM else "legal"
    for capture in sorted(solver.legal_captures(), key=lambda c: _sort_key(c.key)):
        if capture.key not in listed:
            findings.append(
                Finding(
                    FindingKind.COMPLETENESS,
                    f"the {which} capture {capture} (route {'-'.join(map(str, capture.route))}) is missing",
                    {"fen": fen, "move": move_text(capture.key), "route": list(capture.route)},
                )
            )
    return findings


def quiet_moves(position: Position, rules: Rules = INTERNATIONAL) -> set[MoveKey]:
    """The moves without capture (Art. 3.4, 3.9): men one step forward, kings any distance (one
    step where the rule set's kings are not flying), on the position's board.

    Written independently of the oracle's move generator. A step onto the far row promotes
    (3.5) but is the same (from, to) move.
    """
    occupied = set(position.squares(Color.WHITE)) | set(position.squares(Color.BLACK))
    turn = position.turn
    forward = NORTHWARD if turn is Color.WHITE else SOUTHWARD
    rays = position.geometry.rays
    reach = None if rules.flying_kings else 1
    result: set[MoveKey] = set()
    for square in position.squares(turn, Kind.MAN):
        for direction in forward:
            ray = rays[square][direction]
            if ray and ray[0] not in occupied:
                result.add((square, ray[0], frozenset()))
    for square in position.squares(turn, Kind.KING):
        for direction in Direction:
            for target in rays[square][direction][:reach]:
                if target in occupied:
                    break
                result.add((square, target, frozenset()))
    return result


def check_quiet_moves(
    position: Position, moves: Iterable[MoveKey], rules: Rules = INTERNATIONAL
) -> list[Finding]:
    """Without a capture on the board, the answer is exactly the quiet moves (Art. 3.4, 3.9, 7.2).

    Captures listed here are left to :func:`check_soundness`; only the non-captures are compared.
    """
    given = {key for key in moves if not key[2]}
    expected = quiet_moves(position, rules)
    missing, extra = expected - given, given - expected
    if not missing and not extra:
        return []
    parts = []
    if missing:
        parts.append(f"missing {', '.join(_texts(missing))}")
    if extra:
        parts.append(f"not legal {', '.join(_texts(extra))}")
    return [
        Finding(
            FindingKind.QUIET_MOVES,
            f"no capture is possible and the moves differ from the rule's: {'; '.join(parts)}",
            {
                "fen": position.fen(),
                "missing": _texts(missing),
                "extra": _texts(extra),
                "expected": _texts(expected),
            },
        )
    ]


def check_captured_squares(
    position: Position, move: MoveKey, captured_list: Sequence[int] | None = None
) -> list[Finding]:
    """A move's captured squares are distinct (4.8) and each holds an opposing piece (4.1, 4.3)."""
    findings: list[Finding] = []
    listed = list(captured_list) if captured_list is not None else sorted(move[2])
    repeated = sorted(square for square, count in Counter(listed).items() if count > 1)
    detail = {"fen": position.fen(), "move": move_text(move)}
    if repeated:
        findings.append(
            Finding(
                FindingKind.CAPTURED_SQUARES,
                f"{move_text(move)} lists captured square(s) {', '.join(map(str, repeated))} more than once",
                detail | {"repeated": repeated},
            )
        )
    opponent = position.turn.opponent
    wrong = sorted(
        s for s in set(listed) if (piece := position.piece_at(s)) is None or piece.color is not opponent
    )
    if wrong:
        findings.append(
            Finding(
                FindingKind.CAPTURED_SQUARES,
                f"{move_text(move)} captures {', '.join(map(str, wrong))}, where no {opponent} piece stands",
                detail | {"not_opponent": wrong},
            )
        )
    return findings


# -- colour-flip symmetry ---------------------------------------------------------------------------


def mirror_move(key: MoveKey, squares: int = 50) -> MoveKey:
    """The move seen from the other side: square ``s`` becomes ``squares + 1 - s`` (51 - s on 10x10)."""
    from_square, to_square, captured = key
    n = squares + 1
    return (n - from_square, n - to_square, frozenset(n - s for s in captured))


def mirrored_fen(fen: str | Position) -> str:
    """The colour-flipped position (squares s <-> 51 - s, colours and side to move swapped)."""
    position = fen if isinstance(fen, Position) else Position.from_fen(fen)
    return position.mirror().fen()


def check_symmetry(
    fen: str | Position, moves: Iterable[object], mirrored_moves: Iterable[object]
) -> list[Finding]:
    """The answer for the colour-flipped position is the flipped answer (the rules favour no colour).

    ``moves`` answers ``fen``; ``mirrored_moves`` answers :func:`mirrored_fen` of it.
    """
    position = fen if isinstance(fen, Position) else Position.from_fen(fen)
    squares = position.geometry.square_count
    read, findings = read_moves(moves, position.fen(), squares)
    read_mirrored, more = read_moves(mirrored_moves, position.mirror().fen(), squares)
    findings += more
    expected = {mirror_move(item.key, position.geometry.square_count) for item in read}
    got = {item.key for item in read_mirrored}
    if expected != got:
        missing, extra = expected - got, got - expected
        findings.append(
            Finding(
                FindingKind.SYMMETRY,
                f"the colour-flipped position {position.mirror().fen()} gets different moves: "
                f"flipped moves missing {_texts(missing)}, extra {_texts(extra)}",
                {
                    "fen": position.fen(),
                    "mirrored_fen": position.mirror().fen(),
                    "missing": _texts(missing),
                    "extra": _texts(extra),
                },
            )
        )
    return findings
