"""The position after a move: the engine's, checked, and the rules' own (Art. 3.5, 4.11, 4.15).

* :func:`check_result` -- one move and the position the engine says it leads to: pieces after
  = before - captured, no man on its own promotion row, promotion only on the far row;
* :func:`position_after` -- that position by the rules' arithmetic alone, no move generator;
* :func:`read_placement` -- a FEN read leniently, so that a wrong answer is described, not refused.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final

from conformance.core.errors import UsageError
from conformance.verify.answer_reading import read_move
from conformance.verify.findings import Finding, FindingKind, MoveKey, move_text
from oracle.position import Color, Kind, Position

_ITEM: Final = re.compile(r"(K?)(\d+)(?:-(\d+))?")

Placement = dict[int, tuple[Color, Kind]]


class PlacementError(UsageError, ValueError):
    """A FEN given for checking cannot be read at all."""


def read_placement(fen: str, squares: int = 50) -> tuple[Color, Placement]:
    """Side to move and pieces of a PDN FEN, read leniently: a man on its promotion row is kept.

    The oracle's :meth:`Position.from_fen` rightly rejects such a FEN; an engine's answer may
    contain one, and the checks must say so rather than fail. Raises :class:`PlacementError`
    naming what is wrong when the text is not FEN at all. ``squares``: how many the board has.
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
            if not 1 <= first <= last <= squares:
                raise PlacementError(f"FEN {fen!r}: {item!r} is not within 1-{squares} (or runs backward)")
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


def check_result(
    fen_before: str | Position, move: object, fen_after: str, crowned_on_the_way: bool = False
) -> list[Finding]:
    """The position an engine gives after ``move`` (Art. 3.5, 4.11, 4.15).

    ``crowned_on_the_way``: the man crossed its far row mid-capture in a game whose crowning
    ``continues`` (Russian): it ends as a king wherever it stops.

    Checks, in this order of precedence: the opponent's pieces after are those before minus
    the captured ones (and the mover's side keeps its number); no man stands on its own
    promotion row; a man is crowned exactly when its move ends on the far row; the rest of
    the position (the moved piece, the side to move) is as the move says. The move itself is
    not checked for legality here (see :func:`verify_position`).
    """
    before = fen_before if isinstance(fen_before, Position) else Position.from_fen(fen_before)
    board = before.geometry

    def far(square: int, color: Color) -> bool:
        return board.row_of(square) == board.far_row(color is Color.WHITE)

    fen = before.fen()
    read = read_move(move, before.geometry.square_count)
    if isinstance(read, str):
        return [Finding(FindingKind.MALFORMED, read, {"fen": fen, "move": repr(move)})]
    key = read.key
    from_square, to_square, captured = key
    detail: dict[str, Any] = {"fen": fen, "move": move_text(key), "fen_after": fen_after}
    try:
        turn_after, after = read_placement(fen_after, board.square_count)
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
    misplaced = sorted(s for s, (color, kind) in after.items() if kind is Kind.MAN and far(s, color))
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
        on_far_row = far(to_square, us) or crowned_on_the_way
        if on_far_row and landed[1] is not Kind.KING:
            findings.append(
                Finding(
                    FindingKind.PROMOTION,
                    f"{move_text(key)} ends on the far row but the man is not crowned (3.5)",
                    detail,
                )
            )
        elif not on_far_row and landed[1] is Kind.KING:
            findings.append(
                Finding(
                    FindingKind.PROMOTION,
                    f"{move_text(key)} does not end on the far row but the man is crowned (3.5, 4.15)",
                    detail,
                )
            )
    if mover is not None and mover[0] is us:
        crowned = mover[1] is Kind.MAN and (far(to_square, us) or crowned_on_the_way)
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


def position_after(position: Position, move: MoveKey, crowned_on_the_way: bool = False) -> Position:
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
    board = position.geometry
    far = board.row_of(to_square) == board.far_row(us is Color.WHITE)
    crowned = mover[1] is Kind.MAN and (far or crowned_on_the_way)
    after[to_square] = (us, Kind.KING if crowned else mover[1])

    def bits(color: Color, kind: Kind) -> int:
        return board.bitboard(s for s, piece in after.items() if piece == (color, kind))

    return dataclasses.replace(  # on the position's own board
        position,
        turn=us.opponent,
        white_men=bits(Color.WHITE, Kind.MAN),
        white_kings=bits(Color.WHITE, Kind.KING),
        black_men=bits(Color.BLACK, Kind.MAN),
        black_kings=bits(Color.BLACK, Kind.KING),
    )


def piece_words(placement: Placement, square: int) -> str:
    """What stands on ``square``: ``empty``, ``white man``, ``black king``..."""
    if square not in placement:
        return "empty"
    color, kind = placement[square]
    return f"{color} {kind.value}"


def _difference(expected: Placement, got: Placement, turn: Color, got_turn: Color) -> str:
    parts = [
        f"{square}: {piece_words(got, square)} instead of {piece_words(expected, square)}"
        for square in sorted(set(expected) | set(got))
        if expected.get(square) != got.get(square)
    ]
    if got_turn is not turn:
        parts.append(f"{got_turn} to move instead of {turn}")
    return "; ".join(parts)
