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

What a finding is: :mod:`conformance.verify.findings`; how an answer's moves are read:
:mod:`conformance.verify.answer_reading`.

A solver time-out raises :class:`~conformance.verify.capture_formula.SolverUnknownError`: it is an error
of the verification, never a pass and never a finding against the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from conformance.verify.answer_reading import read_moves
from conformance.verify.capture_formula import DEFAULT_TIMEOUT_MS, VerifyError
from conformance.verify.findings import Finding, FindingKind, MoveKey, move_order, move_text, move_texts
from conformance.verify.smt import CaptureSolver
from oracle.board import NORTHWARD, SOUTHWARD, Direction
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, Rules

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
        what = f"offers {', '.join(move_texts(quiet))}" if quiet else "offers no capture"
        findings.append(
            Finding(
                FindingKind.COMPULSORY_CAPTURE,
                f"capturing is compulsory but the answer {what}; e.g. {move_text(witness.capture.key)} "
                f"(route {'-'.join(map(str, witness.route))})",
                {"fen": fen, "non_captures": move_texts(quiet), "witness_route": list(witness.route)},
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
    for key in sorted(captures, key=move_order):
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
    keys = sorted(captures, key=move_order)
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
    for capture in sorted(solver.legal_captures(), key=lambda c: move_order(c.key)):
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
        parts.append(f"missing {', '.join(move_texts(missing))}")
    if extra:
        parts.append(f"not legal {', '.join(move_texts(extra))}")
    return [
        Finding(
            FindingKind.QUIET_MOVES,
            f"no capture is possible and the moves differ from the rule's: {'; '.join(parts)}",
            {
                "fen": position.fen(),
                "missing": move_texts(missing),
                "extra": move_texts(extra),
                "expected": move_texts(expected),
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
                f"flipped moves missing {move_texts(missing)}, extra {move_texts(extra)}",
                {
                    "fen": position.fen(),
                    "mirrored_fen": position.mirror().fen(),
                    "missing": move_texts(missing),
                    "extra": move_texts(extra),
                },
            )
        )
    return findings
