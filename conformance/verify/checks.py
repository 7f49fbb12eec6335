"""Checks of an engine's answer for one position: plain functions returning findings.

Each check takes what an engine answered (a list of legal moves as (from, to, captured) --
tuples, :class:`oracle.moves.Move` or anything with ``from_square``, ``to_square`` and
``captured``) and returns a list of :class:`Finding`; an empty list means the check passed.
Nothing here decides pass/fail or talks to an engine: the harness does, filing each finding
under the articles of its :class:`FindingKind`.

* :func:`verify_position` -- everything about one legal-move answer: the SMT checks of the
  captures (soundness, optimality, completeness: :mod:`conformance.verify.smt`), compulsory
  capture, the quiet moves when there is no capture, and the captured squares of each move.
* :func:`check_result` -- one move and the position the engine says it leads to: pieces after
  = before - captured, no man on its own promotion row, promotion only on the far row.
* :func:`check_symmetry` -- the legal moves of a position and of its colour-flipped twin.

A solver time-out raises :class:`~conformance.verify.smt.SolverUnknownError`: it is an error
of the verification, never a pass and never a finding against the engine.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, runtime_checkable

from conformance.verify.smt import DEFAULT_TIMEOUT_MS, CaptureSolver, VerifyError
from oracle.board import NORTHWARD, RAYS, SOUTHWARD, Direction, row_of
from oracle.position import Color, Kind, Position

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
class _Read:
    key: MoveKey
    captured_list: tuple[int, ...]


def move_text(key: MoveKey) -> str:
    """``32-28`` or ``28x19 {23}``: the (from, to, captured) form used in findings."""
    from_square, to_square, captured = key
    if not captured:
        return f"{from_square}-{to_square}"
    return f"{from_square}x{to_square} {{{','.join(map(str, sorted(captured)))}}}"


def _read_move(move: object) -> _Read | str:
    """The move's key, or why it cannot be read."""
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
        if not 1 <= square <= 50:
            return f"{move!r}: square {square} is outside 1-50"
        squares.append(square)
    captured_list = tuple(squares[2:])
    key = (squares[0], squares[1], frozenset(captured_list))
    return _Read(key, captured_list)


def read_moves(moves: Iterable[object], fen: str = "") -> tuple[list[_Read], list[Finding]]:
    """The readable moves of an answer, and findings for the unreadable and repeated ones."""
    findings: list[Finding] = []
    read: list[_Read] = []
    for move in moves:
        result = _read_move(move)
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
    :class:`~conformance.verify.smt.SolverUnknownError` when z3 cannot answer in time.
    """
    position = fen if isinstance(fen, Position) else Position.from_fen(fen)
    fen_text = position.fen()
    read, findings = read_moves(moves, fen_text)
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
        findings += check_quiet_moves(position, keys)
    return findings


def check_captures(solver: CaptureSolver, moves: Iterable[MoveKey]) -> list[Finding]:
    """Soundness, optimality, completeness and compulsory capture of an answer (Art. 4.2-4.15)."""
    keys = set(moves)
    fen = solver.position.fen()
    captures = {key for key in keys if key[2]}
    findings = check_completeness(solver, captures)  # first: its witnesses make soundness cheap
    findings = check_soundness(solver, captures) + check_optimality(solver, captures) + findings
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
    """Every maximum capture the solver enumerates is in the answer (4.13, 4.14)."""
    listed = set(captures)
    fen = solver.position.fen()
    findings: list[Finding] = []
    for capture in sorted(solver.maximal_captures(), key=lambda c: _sort_key(c.key)):
        if capture.key not in listed:
            findings.append(
                Finding(
                    FindingKind.COMPLETENESS,
                    f"the maximum capture {capture} (route {'-'.join(map(str, capture.route))}) is missing",
                    {"fen": fen, "move": move_text(capture.key), "route": list(capture.route)},
                )
            )
    return findings


def quiet_moves(position: Position) -> set[MoveKey]:
    """The moves without capture (Art. 3.4, 3.9): men one step forward, kings any distance.

    Written independently of the oracle's move generator. A step onto the far row promotes
    (3.5) but is the same (from, to) move.
    """
    occupied = set(position.squares(Color.WHITE)) | set(position.squares(Color.BLACK))
    turn = position.turn
    forward = NORTHWARD if turn is Color.WHITE else SOUTHWARD
    result: set[MoveKey] = set()
    for square in position.squares(turn, Kind.MAN):
        for direction in forward:
            ray = RAYS[square][direction]
            if ray and ray[0] not in occupied:
                result.add((square, ray[0], frozenset()))
    for square in position.squares(turn, Kind.KING):
        for direction in Direction:
            for target in RAYS[square][direction]:
                if target in occupied:
                    break
                result.add((square, target, frozenset()))
    return result


def check_quiet_moves(position: Position, moves: Iterable[MoveKey]) -> list[Finding]:
    """Without a capture on the board, the answer is exactly the quiet moves (Art. 3.4, 3.9, 7.2).

    Captures listed here are left to :func:`check_soundness`; only the non-captures are compared.
    """
    given = {key for key in moves if not key[2]}
    expected = quiet_moves(position)
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


# -- the position after a move --------------------------------------------------------------------

_ITEM: Final = re.compile(r"(K?)(\d+)(?:-(\d+))?")

Placement = dict[int, tuple[Color, Kind]]


class PlacementError(ValueError):
    """A FEN given for checking cannot be read at all."""


def read_placement(fen: str) -> tuple[Color, Placement]:
    """Side to move and pieces of a PDN FEN, read leniently: a man on its promotion row is kept.

    The oracle's :meth:`Position.from_fen` rightly rejects such a FEN; an engine's answer may
    contain one, and the checks must say so rather than fail. Raises :class:`PlacementError`
    naming what is wrong when the text is not FEN at all.
    """
    side, *sections = fen.strip().split(":")
    if side.strip() not in ("W", "B"):
        raise PlacementError(f"FEN {fen!r}: side to move {side.strip()!r} must be 'W' or 'B'")
    placement: Placement = {}
    for section in sections:
        section = section.strip()
        if not section or section[0] not in "WB":
            raise PlacementError(f"FEN {fen!r}: section {section!r} must start with 'W' or 'B'")
        color = Color(section[0])
        for item in filter(None, (part.strip() for part in section[1:].split(","))):
            match = _ITEM.fullmatch(item)
            if match is None:
                raise PlacementError(f"FEN {fen!r}: {item!r} is not a square, a K-square or a range")
            first = int(match.group(2))
            last = int(match.group(3) or first)
            if not 1 <= first <= last <= 50:
                raise PlacementError(f"FEN {fen!r}: {item!r} is not within 1-50 (or runs backward)")
            for square in range(first, last + 1):
                if square in placement:
                    raise PlacementError(f"FEN {fen!r}: square {square} is listed twice")
                placement[square] = (color, Kind.KING if match.group(1) else Kind.MAN)
    return Color(side.strip()), placement


def _placement_of(position: Position) -> Placement:
    placement: Placement = {}
    for color in Color:
        for kind in Kind:
            for square in position.squares(color, kind):
                placement[square] = (color, kind)
    return placement


def check_result(fen_before: str | Position, move: object, fen_after: str) -> list[Finding]:
    """The position an engine gives after ``move`` (Art. 3.5, 4.11, 4.15).

    Checks, in this order of precedence: the opponent's pieces after are those before minus
    the captured ones (and the mover's side keeps its number); no man stands on its own
    promotion row; a man is crowned exactly when its move ends on the far row; the rest of
    the position (the moved piece, the side to move) is as the move says. The move itself is
    not checked for legality here (see :func:`verify_position`).
    """
    before = fen_before if isinstance(fen_before, Position) else Position.from_fen(fen_before)
    fen = before.fen()
    read = _read_move(move)
    if isinstance(read, str):
        return [Finding(FindingKind.MALFORMED, read, {"fen": fen, "move": repr(move)})]
    key = read.key
    from_square, to_square, captured = key
    detail: dict[str, Any] = {"fen": fen, "move": move_text(key), "fen_after": fen_after}
    try:
        turn_after, after = read_placement(fen_after)
    except PlacementError as error:
        return [
            Finding(FindingKind.MALFORMED, f"the position after {move_text(key)} is not FEN: {error}", detail)
        ]
    old = _placement_of(before)
    mover = old.get(from_square)
    findings: list[Finding] = []
    us, them = before.turn, before.turn.opponent

    def pieces(placement: Placement, color: Color) -> dict[int, Kind]:
        return {s: kind for s, (owner, kind) in placement.items() if owner is color}

    expected_them = {s: kind for s, kind in pieces(old, them).items() if s not in captured}
    got_them = pieces(after, them)
    if got_them != expected_them or len(pieces(after, us)) != len(pieces(old, us)):
        findings.append(
            Finding(
                FindingKind.PIECE_COUNT,
                f"after {move_text(key)}: {them} has {len(got_them)} pieces and {us} {len(pieces(after, us))}; "
                f"expected {len(expected_them)} and {len(pieces(old, us))} (before - captured)",
                detail
                | {
                    "expected_opponent": sorted(expected_them),
                    "got_opponent": sorted(got_them),
                },
            )
        )
    misplaced = sorted(
        s for s, (color, kind) in after.items() if kind is Kind.MAN and row_of(s) == color.promotion_row
    )
    if misplaced:
        findings.append(
            Finding(
                FindingKind.PROMOTION_ROW,
                f"after {move_text(key)} a man stands on its own promotion row: {', '.join(map(str, misplaced))}",
                detail | {"squares": misplaced},
            )
        )
    landed = after.get(to_square)
    if mover is not None and mover == (us, Kind.MAN) and landed is not None and landed[0] is us:
        far = row_of(to_square) == us.promotion_row
        if far and landed[1] is not Kind.KING:
            findings.append(
                Finding(
                    FindingKind.PROMOTION,
                    f"{move_text(key)} ends on the far row but the man is not crowned (3.5)",
                    detail,
                )
            )
        elif not far and landed[1] is Kind.KING:
            findings.append(
                Finding(
                    FindingKind.PROMOTION,
                    f"{move_text(key)} does not end on the far row but the man is crowned (3.5, 4.15)",
                    detail,
                )
            )
    if mover is not None and mover[0] is us:
        crowned = mover[1] is Kind.MAN and row_of(to_square) == us.promotion_row
        expected = {s: piece for s, piece in old.items() if s != from_square and s not in captured}
        expected[to_square] = (us, Kind.KING if crowned else mover[1])
        if not findings and (after != expected or turn_after is not them):
            findings.append(
                Finding(
                    FindingKind.RESULT_POSITION,
                    f"the position after {move_text(key)} is wrong: "
                    + _difference(expected, after, them, turn_after),
                    detail,
                )
            )
    return findings


def position_after(position: Position, move: MoveKey) -> Position:
    """The position after ``move`` by the rules' arithmetic alone (Art. 3.5, 4.11, 4.15).

    The captured pieces leave, the piece on ``from`` goes to ``to``, a man is crowned exactly
    when it ends on its far row, the other side is to move. The move is not checked for
    legality (see :func:`verify_position`) and no move generator is used: this is the
    expectation a hand-written ``after`` case states, computed the way a reader computes it.
    Raises :class:`ValueError` when ``from`` holds no piece of the side to move, or ``to`` is
    occupied by another piece.
    """
    from_square, to_square, captured = move
    placement = _placement_of(position)
    mover = placement.get(from_square)
    us = position.turn
    if mover is None or mover[0] is not us:
        raise ValueError(f"square {from_square} holds no piece of the side to move in {position.fen()}")
    if to_square != from_square and to_square in placement and to_square not in captured:
        raise ValueError(f"square {to_square} is occupied in {position.fen()}")
    after = {s: piece for s, piece in placement.items() if s != from_square and s not in captured}
    crowned = mover[1] is Kind.MAN and row_of(to_square) == us.promotion_row
    after[to_square] = (us, Kind.KING if crowned else mover[1])

    def squares(color: Color, kind: Kind) -> frozenset[int]:
        return frozenset(s for s, piece in after.items() if piece == (color, kind))

    return Position.from_squares(
        us.opponent,
        white_men=squares(Color.WHITE, Kind.MAN),
        white_kings=squares(Color.WHITE, Kind.KING),
        black_men=squares(Color.BLACK, Kind.MAN),
        black_kings=squares(Color.BLACK, Kind.KING),
    )


def _difference(expected: Placement, got: Placement, turn: Color, got_turn: Color) -> str:
    def describe(placement: Placement, square: int) -> str:
        if square not in placement:
            return "empty"
        color, kind = placement[square]
        return f"{color} {kind.value}"

    parts = [
        f"{square}: {describe(got, square)} instead of {describe(expected, square)}"
        for square in sorted(set(expected) | set(got))
        if expected.get(square) != got.get(square)
    ]
    if got_turn is not turn:
        parts.append(f"{got_turn} to move instead of {turn}")
    return "; ".join(parts)


# -- colour-flip symmetry ---------------------------------------------------------------------------


def mirror_move(key: MoveKey) -> MoveKey:
    """The move seen from the other side: square ``s`` becomes ``51 - s``."""
    from_square, to_square, captured = key
    return (51 - from_square, 51 - to_square, frozenset(51 - s for s in captured))


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
    read, findings = read_moves(moves, position.fen())
    read_mirrored, more = read_moves(mirrored_moves, position.mirror().fen())
    findings += more
    expected = {mirror_move(item.key) for item in read}
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
