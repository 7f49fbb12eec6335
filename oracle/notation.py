"""Move text: PDN 3.0 and the Hub protocol, in and out (FMJD Art. 8; rules.md).

PDN writes a step ``32-28`` and a capture ``28x19``. When ``fromxto`` would name more than one
legal move, PDN 3.0's move notation writes the full route instead: the start, one square per
captured piece (where the capture turns, or right behind the piece when it goes straight on), the
last being the destination -- ``47x38x24x13x36``. A bare ambiguous ``fromxto`` is rejected.

Reading a capture's text (:func:`parse_among`): a text that lists every landing square of one
move -- a route of it, exactly -- names that move; only a text that is no move's route is read as
*waypoints*, the squares of a route in order with some left out (``47x24x36``). The exact route
comes first because between two landing squares exactly one piece is jumped (Art. 3.9, 4.3): a
route determines the move, whereas under free choice of capture (Russian 1.5.14, pool APCA 20, ACF
1.20) the route of a shorter capture can be the waypoints of a longer one (``29x22x15x8`` beside
``29x22x31x24x15x8`` in ``W:W29:B11,18,19,25,26,27``, Russian). Writing (:func:`pdn_text`) gives
the shorter of PDN's two forms that reads back as exactly that move -- ``fromxto`` when it names
the move alone, else the full route -- so reading is the inverse of writing under every rule set.

The Hub protocol (Scan) writes a step ``32-28`` and a capture ``fromxto`` followed by every
*captured* square: ``47x36x19x29x31x42``. The same ``axbxc`` spelling thus means different
things in the two notations; every function here names the one it speaks.

Squares are the numbers of the position's board (:mod:`oracle.board`: 1-32 on 8x8, 1-72 on 12x12).
Where the rule set's PDN GameType writes squares algebraically (Russian and Brazilian draughts),
PDN move text may name them so -- ``c3-d4``, ``c3xe5``, and Russian's ``c3:e5`` -- and is read
to the same move; the texts this module writes are numeric.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from oracle.board import Geometry
from oracle.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    MoveSyntaxError,
    SquareRangeError,
    excerpt,
    number_excerpt,
)
from oracle.moves import Move, capture_routes, legal_moves
from oracle.position import MAX_PIECES_PER_SIDE, Position
from oracle.rules import INTERNATIONAL, Rules


class Notation(enum.Enum):
    PDN = "pdn"
    HUB = "hub"


_STEP: Final = re.compile(r"([0-9]+)-([0-9]+)")
_CAPTURE: Final = re.compile(r"[0-9]++(?:x[0-9]++)++")  # possessive: no memory per square
_ALGEBRAIC_STEP: Final = re.compile(r"([a-z][0-9]{1,2})-([a-z][0-9]{1,2})")
_ALGEBRAIC_CAPTURE: Final = re.compile(r"[a-z][0-9]{1,2}+(?:[x:][a-z][0-9]{1,2}+)++")

MAX_SQUARES_IN_TEXT: Final = 2 + MAX_PIECES_PER_SIDE
"""The most squares a move text can name on 10x10: Hub's from, to and up to 20 captured pieces
(on another board: from, to and every square of the opponent's half)."""


# -- writing ----------------------------------------------------------------------------------


def pdn_text(position: Position, move: Move, rules: Rules = INTERNATIONAL) -> str:
    """The PDN text of a legal move: ``from-to``, ``fromxto``, or the full route if ambiguous."""
    moves = legal_moves(position, rules)
    return _text_among(moves, _find(moves, move, position))


def _text_among(moves: Sequence[Move], move: Move) -> str:
    """The PDN text of ``move`` among ``moves``: the full route when ``fromxto`` names several."""
    if not move.captured:
        return f"{move.from_square}-{move.to_square}"
    if _is_ambiguous(moves, move):
        return "x".join(map(str, move.route))
    return f"{move.from_square}x{move.to_square}"


def pdn_text_among(position: Position, move: Move, moves: Sequence[Move]) -> str:
    """The PDN text of ``move`` among a position's ``moves`` (by the rules or another generator)."""
    return _text_among(moves, _find(list(moves), move, position))


def hub_text(move: Move) -> str:
    """The Hub text of a move: ``from-to``, or ``fromxto`` then every captured square, ascending."""
    if not move.captured:
        return f"{move.from_square}-{move.to_square}"
    return "x".join(map(str, (move.from_square, move.to_square, *sorted(move.captured))))


def move_text(position: Position, move: Move, notation: Notation, rules: Rules = INTERNATIONAL) -> str:
    if notation is Notation.HUB:
        return hub_text(_find(legal_moves(position, rules), move, position))
    return pdn_text(position, move, rules)


def _find(moves: list[Move], move: Move, position: Position) -> Move:
    for legal in moves:
        if legal == move:
            return legal
    raise IllegalMoveError(f"{move} is not a legal move in {position.fen()}")


def _is_ambiguous(moves: Sequence[Move], move: Move) -> bool:
    return any(
        other.from_square == move.from_square and other.to_square == move.to_square and other != move
        for other in moves
    )


# -- reading ----------------------------------------------------------------------------------


def parse_move(
    position: Position,
    text: str,
    notation: Notation = Notation.PDN,
    rules: Rules = INTERNATIONAL,
    *,
    legal: Sequence[Move] | None = None,
) -> Move:
    """The legal move of ``position`` that ``text`` names (``legal``: the position's legal moves
    under ``rules``, as :func:`~oracle.moves.legal_moves` lists them, when they are at hand).

    Raises :class:`MoveSyntaxError` (not move text), :class:`SquareRangeError` (a square outside
    1-50), :class:`IllegalMoveError` (no legal move matches) or :class:`AmbiguousMoveError` (several
    do; the error lists them in full).
    """
    return parse_among(
        position,
        text,
        notation,
        legal_moves(position, rules) if legal is None else legal,
        lambda: capture_routes(position, rules),
        algebraic=rules.algebraic,
    )


def parse_among(
    position: Position,
    text: str,
    notation: Notation,
    moves: Sequence[Move],
    routes: Callable[[], Mapping[Move, Sequence[tuple[int, ...]]]],
    *,
    algebraic: bool = False,
) -> Move:
    """The move of ``moves`` (a position's moves, by the rules or by another generator) that
    ``text`` names, as :func:`parse_move` reads it; ``routes`` gives every route of each capture
    (asked only for a PDN text with intermediate squares). ``algebraic``: PDN text may name
    squares algebraically (the game's GameType says so)."""
    squares, is_capture = _squares_of_text(text, notation, position.geometry, algebraic)
    moves = list(moves)
    from_square, to_square = squares[0], squares[1] if notation is Notation.HUB else squares[-1]
    same_ends = [m for m in moves if m.from_square == from_square and m.to_square == to_square]

    if not is_capture:
        steps = [m for m in same_ends if not m.captured]
        if steps:
            return steps[0]
        if same_ends:
            raise IllegalMoveError(
                f"{excerpt(text)} is written as a step, but the move from {from_square} to {to_square} "
                f"is a capture here: write it with 'x' ({_listing(moves, same_ends)})"
            )
        raise IllegalMoveError(_no_such_move(position, text, moves))

    captures = [m for m in same_ends if m.captured]
    if not captures:
        message = _no_such_move(position, text, moves)
        if same_ends:
            message += f" (the move from {from_square} to {to_square} is a step: write it with '-')"
        raise IllegalMoveError(message)

    if notation is Notation.HUB and len(squares) > 2:
        wanted = frozenset(squares[2:])
        if len(wanted) != len(squares) - 2:
            raise MoveSyntaxError(f"Hub move {excerpt(text)} lists a captured square twice")
        matches = [m for m in captures if m.captured == wanted]
    elif notation is Notation.PDN and (len(squares) > 2 or len(captures) > 1):
        matches = _route_matches(squares, captures, routes())
    else:
        matches = captures

    if not matches:
        raise IllegalMoveError(
            f"{excerpt(text)} ({notation.value}) matches none of the legal captures from {from_square} to "
            f"{to_square}: {_listing(moves, captures)}"
        )
    if len(matches) > 1:
        candidates = tuple(f"{_text_among(moves, m)} {{{_captured(m)}}}" for m in matches)
        raise AmbiguousMoveError(
            f"{excerpt(text)} is ambiguous in {position.fen()}: it names {len(matches)} legal moves "
            f"({'; '.join(candidates)}); give the full route (PDN) or the captured squares (Hub)",
            candidates,
        )
    return matches[0]


def _squares_of_text(
    text: str, notation: Notation, board: Geometry, algebraic: bool
) -> tuple[list[int], bool]:
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move text must be a string, not {type(text).__name__}")
    stripped = text.strip()
    if algebraic and notation is Notation.PDN and stripped[:1].isalpha():
        return _algebraic_squares(text, stripped, board)
    step_match = _STEP.fullmatch(stripped)
    if step_match:
        numbers, is_capture = [step_match.group(1), step_match.group(2)], False
    elif _CAPTURE.fullmatch(stripped):
        numbers, is_capture = stripped.split("x"), True
    else:
        example = (
            "'32-28', '28x19' or '47x38x24x13x36'" if notation is Notation.PDN else "'32-28' or '28x19x23'"
        )
        raise MoveSyntaxError(
            f"{excerpt(text)} is not {notation.value.upper()} move text (expected e.g. {example})"
        )
    most_pieces = MAX_PIECES_PER_SIDE if board.size == 10 else board.square_count // 2
    if len(numbers) > 2 + most_pieces:
        raise MoveSyntaxError(
            f"{excerpt(text)} names {len(numbers):,} squares: no move text names more than "
            f"{2 + most_pieces} (a capture takes at most {most_pieces} pieces)"
        )
    outside = f"outside 1-{board.square_count}"
    return _squares(text, numbers, board.square_of_digits, number_excerpt, outside), is_capture


def _squares(
    text: str, names: list[str], square_of: Callable[[str], int | None], shown: Callable[[str], str], why: str
) -> list[int]:
    """The square each name in ``text`` names (``square_of``), or :class:`SquareRangeError`."""
    squares = []
    for name in names:
        square = square_of(name)
        if square is None:
            raise SquareRangeError(f"{excerpt(text)} names square {shown(name)}, {why}")
        squares.append(square)
    return squares


def _algebraic_squares(text: str, stripped: str, board: Geometry) -> tuple[list[int], bool]:
    """The squares of an algebraic PDN move text (``c3-d4``, ``c3xe5``, ``c3:e5:g3``)."""
    step_match = _ALGEBRAIC_STEP.fullmatch(stripped)
    if step_match:
        names, is_capture = [step_match.group(1), step_match.group(2)], False
    elif _ALGEBRAIC_CAPTURE.fullmatch(stripped) and len(stripped) <= 4 * board.square_count:
        names, is_capture = re.split("[x:]", stripped), True
    else:
        raise MoveSyntaxError(f"{excerpt(text)} is not PDN move text (expected e.g. 'c3-d4' or 'c3:e5')")
    why = f"not a dark square of the {board.size}x{board.size} board"
    return _squares(text, names, board.square_of_algebraic, str, why), is_capture


def _route_matches(
    squares: list[int], captures: list[Move], every: Mapping[Move, Sequence[tuple[int, ...]]]
) -> list[Move]:
    """The captures a PDN text of ``squares`` names: the one of which it is a route, exactly (a
    route determines its move: between two landing squares exactly one piece is jumped), else
    every capture of which it gives waypoints (two squares, start and end: every capture).

    Under maximum capture (international) the exact match never decides anything waypoints
    would not: the legal captures all take the same number of pieces, so their routes are equally
    long and none is a proper subsequence of another's; a text that is a route is a route of one
    move and the waypoints of no other, and the texts and readings are those of waypoints alone.
    Under free choice a shorter capture's route can be the waypoints of a longer one's."""
    text = tuple(squares)
    exact = [m for m in captures if text in every.get(m, ())]
    if exact or len(squares) == 2:
        return exact or captures
    return [m for m in captures if any(_is_subsequence(squares, route) for route in every.get(m, ()))]


def _is_subsequence(squares: list[int], route: tuple[int, ...]) -> bool:
    """Whether the squares of a PDN text appear, in order, along a route (start and end included)."""
    if squares[0] != route[0] or squares[-1] != route[-1]:
        return False
    remaining = iter(route[1:-1])
    return all(square in remaining for square in squares[1:-1])


def _captured(move: Move) -> str:
    return ",".join(map(str, sorted(move.captured)))


def _listing(moves: Sequence[Move], shown: Sequence[Move]) -> str:
    return ", ".join(
        f"{_text_among(moves, m)}" + (f" {{{_captured(m)}}}" if m.captured else "") for m in shown
    )


def _no_such_move(position: Position, text: str, moves: Sequence[Move]) -> str:
    if not moves:
        return f"{excerpt(text)}: the side to move has no legal move in {position.fen()} (Art. 7.2)"
    shown = sorted(moves, key=lambda m: (m.from_square, m.to_square, sorted(m.captured)))
    kind = "captures (compulsory, Art. 4.2)" if moves[0].captured else "moves"
    listing = _listing(moves, shown[:12]) + (", ..." if len(shown) > 12 else "")
    return f"{excerpt(text)} is not a legal move in {position.fen()}; the legal {kind}: {listing}"
