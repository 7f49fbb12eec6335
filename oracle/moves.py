"""Legal moves: steps, flying kings and captures (FMJD Art. 3, 4; the loss of Art. 7.2).

Read with rules.md. The generator answers, for a position, every legal move as
(from square, to square, set of captured squares). This is the FMJD game; each switch of the rule
set (:class:`~oracle.rules.Rules`) that other games of the family set otherwise is one named branch:

* ``men_capture_backward`` off (American): a man jumps forward only --
  :attr:`oracle.captures.CaptureSearch.man_jumps`.
* ``flying_kings`` off (American): a king steps and jumps one square, in all four directions --
  :func:`_king_steps` and :meth:`oracle.captures.CaptureSearch.captures_from`.
* ``capture_choice`` free (Russian, pool, American): any complete capture, not only the largest --
  :func:`oracle.captures.legal_captures`. A capture still goes on while it can (the searches end
  a capture only where no jump is left), so free choice is among complete captures.
* ``mid_capture_crowning`` (4.15) -- :meth:`oracle.captures.CaptureSearch.reaches_far_row`: a man
  reaching the far row mid-capture *passes* (goes on as a man: FMJD, Brazilian, pool), *stops* (is
  crowned and the move ends: American) or *continues* (is crowned and goes on as a king: Russian).

The FMJD rules:

* Capture is compulsory (4.2). A man jumps an adjacent opposing piece, forward or backward
  (4.1), onto the empty square right behind it. A king (3.9, 4.3) passes any number of empty
  squares, jumps one opposing piece and lands on any empty square beyond it.
* A capture goes on while a jump is possible (4.5, 4.6). The pieces it takes stay on the board
  until it is over (4.11): they block the path and may not be jumped twice (4.8). Empty
  squares may be crossed again; the capturing piece's own start square counts as empty.
* Of the complete captures, the ones taking the most pieces are legal, a king counting as one
  piece (4.13); among those the player chooses freely (4.14).
* A man that passes the far row during a capture stays a man (4.15); a man is crowned only
  when its move ends on the far row (3.5).
* Two routes with the same start, end and captured pieces are one move (rules.md).

The capture searches are in :mod:`oracle.captures`. Internally every search works on bitboards
(see :mod:`oracle.board`) and yields plain ``(from, to, captured_bitboard, route)`` tuples
(:data:`RawMove`); :class:`Move` is the public face.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from oracle.board import Geometry
from oracle.captures import CaptureSearch, RawMove, legal_captures, raw_captures
from oracle.errors import IllegalMoveError, RulesError
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, MidCaptureCrowning, Rules

__all__ = [
    "Move",
    "RawMove",
    "all_captures",
    "apply_raw",
    "capture_routes",
    "check_board",
    "count_legal_moves",
    "is_lost",
    "legal_moves",
    "play",
    "raw_captures",
    "raw_legal_moves",
]


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move: where the piece starts and ends, and which squares' pieces it captures.

    Identity (equality, hashing) is (from_square, to_square, captured), as rules.md fixes.
    ``route`` is one way the piece travels -- the start, then one landing square per captured
    piece (a square where the capture turns, or right behind the piece when it goes straight
    on), the last being ``to_square`` -- and only matters for notation. A step's route is
    ``(from_square, to_square)``.
    """

    from_square: int
    to_square: int
    captured: frozenset[int] = frozenset()
    route: tuple[int, ...] = ()

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def key(self) -> tuple[int, int, frozenset[int]]:
        return (self.from_square, self.to_square, self.captured)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        if not self.captured:
            return f"{self.from_square}-{self.to_square}"
        captured = ",".join(map(str, sorted(self.captured)))
        return f"{self.from_square}x{self.to_square} {{{captured}}}"


_EMPTY: Final[frozenset[int]] = frozenset()
_new_move = object.__new__
# The slot descriptors of the frozen dataclass, to fill a new Move or Position directly.
_set_from, _set_to, _set_captured, _set_route = (
    vars(Move)[name].__set__ for name in ("from_square", "to_square", "captured", "route")
)


def _make_move(from_square: int, to_square: int, captured: frozenset[int], route: tuple[int, ...]) -> Move:
    """Build a Move without the frozen-dataclass __init__ (twice as fast; same object)."""
    move: Move = _new_move(Move)
    _set_from(move, from_square)
    _set_to(move, to_square)
    _set_captured(move, captured)
    _set_route(move, route)
    return move


# The colours as module globals: reading ``Color.WHITE`` goes through the enum class (about 90 ns
# on Python 3.11), a global is read ten times faster; the hot paths below compare with these.
_WHITE: Final = Color.WHITE
_BLACK: Final = Color.BLACK


def check_board(position: Position, rules: Rules) -> None:
    """A position is played under the rules of its own board."""
    if position.board_size != rules.board_size:
        size, board = rules.board_size, position.board_size
        raise RulesError(
            f"{position.fen()} stands on a {board}x{board} board, but the rules {rules.name!r} "
            f"play on {size}x{size}: read the position under these rules (Position.from_fen(fen, rules))"
        )


# -- steps (Art. 3) ---------------------------------------------------------------------------


def _man_steps(men: int, empty: int, color: Color, board: Geometry) -> list[RawMove]:
    """Art. 3.4: a man steps one square diagonally forward onto an empty square."""
    steps: list[RawMove] = []
    square_of_bit = board.square_of_bit
    for shift in board.north_shifts if color is _WHITE else board.south_shifts:
        # Every man moved one square forward at once (see oracle.board on bitboards).
        targets = (men >> -shift if shift < 0 else men << shift) & empty
        while targets:
            to_bit = targets & -targets
            targets ^= to_bit
            from_bit = to_bit << -shift if shift < 0 else to_bit >> shift
            from_square, to_square = square_of_bit[from_bit], square_of_bit[to_bit]
            steps.append((from_square, to_square, 0, (from_square, to_square)))
    return steps


def _king_steps(kings: int, occupied: int, flying: bool, board: Geometry) -> list[RawMove]:
    """Art. 3.9: a king moves along a diagonal over any number of empty squares; a short king
    (``flying_kings`` off) one square only."""
    steps: list[RawMove] = []
    bit, rays = board.bit, board.rays
    for from_square in board.squares_of(kings):
        for ray in rays[from_square]:
            for to_square in ray:
                if occupied & bit[to_square]:
                    break
                steps.append((from_square, to_square, 0, (from_square, to_square)))
                if not flying:  # a short king: one square
                    break
    return steps


# -- captures (Art. 4: the searches are in oracle.captures) --------------------------------


def capture_routes(position: Position, rules: Rules = INTERNATIONAL) -> dict[Move, list[tuple[int, ...]]]:
    """Every legal capture with all its routes (distinct orders of taking the pieces)."""
    legal = set(legal_moves(position, rules))  # checks the board
    color = position.turn
    search = CaptureSearch(position, rules)
    squares_of = rules.geometry.squares_of
    routes_of: dict[Move, list[tuple[int, ...]]] = {}
    for is_king, board in ((False, position.men(color)), (True, position.kings(color))):
        for start in squares_of(board):
            for (to_square, captured), routes in search.captures_from(start, is_king).items():
                move = _make_move(start, to_square, frozenset(squares_of(captured)), routes[0])
                if move in legal:
                    routes_of[move] = routes
    return routes_of


def _own_pieces(position: Position) -> tuple[int, int, int]:
    """(men, kings, occupied) of the side to move."""
    occupied = position.white_men | position.white_kings | position.black_men | position.black_kings
    if position.turn is _WHITE:
        return position.white_men, position.white_kings, occupied
    return position.black_men, position.black_kings, occupied


def raw_legal_moves(position: Position, rules: Rules = INTERNATIONAL) -> list[RawMove]:
    """The legal moves as raw tuples (see :func:`legal_moves`)."""
    captures = legal_captures(position, rules)
    if captures:
        return captures
    men, kings, occupied = _own_pieces(position)
    board = rules.geometry
    steps = _man_steps(men, board.all_squares & ~occupied, position.turn, board)
    if kings:
        steps += _king_steps(kings, occupied, rules.flying_kings, board)
    return steps


def count_legal_moves(position: Position, rules: Rules = INTERNATIONAL) -> int:
    """How many legal moves there are, without building the steps (perft's last ply counts this)."""
    captures = legal_captures(position, rules)
    if captures:
        return len(captures)
    men, kings, occupied = _own_pieces(position)
    board = rules.geometry
    empty = board.all_squares & ~occupied
    count = 0
    # every man's step at once, as in _man_steps
    for shift in board.north_shifts if position.turn is _WHITE else board.south_shifts:
        count += ((men >> -shift if shift < 0 else men << shift) & empty).bit_count()
    if kings:
        count += len(_king_steps(kings, occupied, rules.flying_kings, board))
    return count


def _to_move(raw: RawMove, board: Geometry) -> Move:
    from_square, to_square, captured, route = raw
    return _make_move(
        from_square, to_square, frozenset(board.squares_of(captured)) if captured else _EMPTY, route
    )


def legal_moves(position: Position, rules: Rules = INTERNATIONAL) -> list[Move]:
    """Every legal move of the side to move (Art. 3, 4), each once.

    Captures if there are any (4.2), else the steps of men and kings. The order is the
    generator's and carries no meaning.
    """
    check_board(position, rules)
    board = rules.geometry
    return [_to_move(raw, board) for raw in raw_legal_moves(position, rules)]


def all_captures(position: Position, rules: Rules = INTERNATIONAL) -> list[Move]:
    """Every complete capture, of any size: the candidates 4.13 chooses among."""
    check_board(position, rules)
    board = rules.geometry
    return [_to_move(raw, board) for raw in raw_captures(position, rules)]


def is_lost(position: Position, rules: Rules = INTERNATIONAL) -> bool:
    """Art. 7.2: the side to move has lost when it has no piece or no legal move."""
    check_board(position, rules)
    return not raw_legal_moves(position, rules)


# -- playing a move ---------------------------------------------------------------------------

_new_position = object.__new__
_POSITION_SETTERS: Final = tuple(
    vars(Position)[name].__set__
    for name in ("white_men", "white_kings", "black_men", "black_kings", "turn", "board_size", "_fen")
)


def _make_position(
    white_men: int, white_kings: int, black_men: int, black_kings: int, turn: Color, board_size: int
) -> Position:
    """Build a Position without the frozen-dataclass __init__ (twice as fast; same object)."""
    position: Position = _new_position(Position)
    set_white_men, set_white_kings, set_black_men, set_black_kings, set_turn, set_size, set_fen = (
        _POSITION_SETTERS
    )
    set_white_men(position, white_men)
    set_white_kings(position, white_kings)
    set_black_men(position, black_men)
    set_black_kings(position, black_kings)
    set_turn(position, turn)
    set_size(position, board_size)
    set_fen(position, None)  # not written yet
    return position


def apply_raw(position: Position, raw: RawMove, rules: Rules = INTERNATIONAL) -> Position:
    """The position after a raw move, which must be legal (no check is made)."""
    from_square, to_square, captured, route = raw
    board = rules.geometry
    bit = board.bit
    from_bit, to_bit = bit[from_square], bit[to_square]
    white = position.turn is _WHITE
    if white:
        men, kings, far_row = position.white_men, position.white_kings, board.top_row
        their_men, their_kings = position.black_men & ~captured, position.black_kings & ~captured
    else:
        men, kings, far_row = position.black_men, position.black_kings, board.bottom_row
        their_men, their_kings = position.white_men & ~captured, position.white_kings & ~captured
    if men & from_bit:
        men ^= from_bit
        crowned = to_bit & far_row or (  # continues: crowned where it reached the far row
            rules.mid_capture_crowning is MidCaptureCrowning.CONTINUES
            and any(bit[s] & far_row for s in route)
        )
        if crowned:  # Art. 3.5: a man ending its move on the far row becomes a king
            kings |= to_bit
        else:
            men |= to_bit
    else:
        kings = (kings ^ from_bit) | to_bit
    if white:
        return _make_position(men, kings, their_men, their_kings, _BLACK, position.board_size)
    return _make_position(their_men, their_kings, men, kings, _WHITE, position.board_size)


def play(position: Position, move: Move, rules: Rules = INTERNATIONAL) -> Position:
    """The position after ``move``; raises :class:`IllegalMoveError` if it is not legal here."""
    check_board(position, rules)
    captured = rules.geometry.bitboard(move.captured)
    for raw in raw_legal_moves(position, rules):
        if raw[0] == move.from_square and raw[1] == move.to_square and raw[2] == captured:
            return apply_raw(position, raw, rules)
    raise IllegalMoveError(f"{move} is not a legal move in {position.fen()}")
