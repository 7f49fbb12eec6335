"""Legal moves: steps, flying kings and captures (FMJD Art. 3, 4; the loss of Art. 7.2).

Read with rules.md. The generator answers, for a position, every legal move as
(from square, to square, set of captured squares):

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

Internally every search works on bitboards (see :mod:`oracle.board`) and yields plain
``(from, to, captured_bitboard, route)`` tuples; :class:`Move` is the public face.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from oracle.board import (
    ALL_SQUARES,
    BIT,
    NORTHWARD,
    RAYS,
    ROWS,
    SHIFT,
    SOUTHWARD,
    Direction,
    bitboard,
    squares_of,
)
from oracle.errors import IllegalMoveError
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, MidCaptureCrowning, Rules


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


# A raw move: (from, to, captured bitboard, route). The searches produce these.
RawMove = tuple[int, int, int, tuple[int, ...]]

_FORWARD: Final = {Color.WHITE: NORTHWARD, Color.BLACK: SOUTHWARD}
_ALL_DIRECTIONS: Final = tuple(Direction)
#: The two directions at right angles to a direction: where a king can turn after a jump.
_TURNS: Final = {d: tuple(t for t in Direction if t not in (d, d.opposite)) for d in Direction}
#: Every direction but straight back over the piece just jumped.
_ONWARD: Final = {d: tuple(t for t in Direction if t is not d.opposite) for d in Direction}


def _short_jumps(
    directions: tuple[Direction, ...],
) -> tuple[tuple[tuple[Direction, int, int, int], ...], ...]:
    """Per square, the short jumps toward ``directions``: (direction, jumped bit, landing, its bit)."""
    return tuple(
        tuple((d, BIT[rays[d][0]], rays[d][1], BIT[rays[d][1]]) for d in directions if len(rays[d]) >= 2)
        if rays
        else ()
        for rays in RAYS
    )


#: ``_SHORT_JUMPS[directions][s]``: the jumps of a man (or short king) on ``s``, over an adjacent piece.
_SHORT_JUMPS: Final = {
    directions: _short_jumps(directions) for directions in (_ALL_DIRECTIONS, NORTHWARD, SOUTHWARD)
}
_SQUARE_OF_BIT: Final = {BIT[s]: s for s in range(1, 51)}
_FORWARD_SHIFTS: Final = {color: tuple(SHIFT[d] for d in _FORWARD[color]) for color in Color}


# -- steps (Art. 3) ---------------------------------------------------------------------------


def _man_steps(men: int, empty: int, color: Color) -> list[RawMove]:
    """Art. 3.4: a man steps one square diagonally forward onto an empty square."""
    steps: list[RawMove] = []
    for shift in _FORWARD_SHIFTS[color]:
        # Every man moved one square forward at once (see oracle.board on bitboards).
        targets = (men >> -shift if shift < 0 else men << shift) & empty
        while targets:
            to_bit = targets & -targets
            targets ^= to_bit
            from_bit = to_bit << -shift if shift < 0 else to_bit >> shift
            from_square, to_square = _SQUARE_OF_BIT[from_bit], _SQUARE_OF_BIT[to_bit]
            steps.append((from_square, to_square, 0, (from_square, to_square)))
    return steps


def _king_steps(kings: int, occupied: int, flying: bool) -> list[RawMove]:
    """Art. 3.9: a king moves along a diagonal over any number of empty squares."""
    steps: list[RawMove] = []
    for from_square in squares_of(kings):
        for ray in RAYS[from_square]:
            for to_square in ray:
                if occupied & BIT[to_square]:
                    break
                steps.append((from_square, to_square, 0, (from_square, to_square)))
                if not flying:
                    break
    return steps


# -- captures (Art. 4) ------------------------------------------------------------------------


class _CaptureSearch:
    """Every complete capture of the side to move, one piece at a time (Art. 4).

    ``occupied`` holds every piece but the capturing one -- its start square counts as
    empty -- and the captured pieces stay in it until the capture is over (4.11): they block
    the way, and a piece already captured is never jumped again (4.8).
    """

    def __init__(self, position: Position, rules: Rules) -> None:
        color = position.turn
        self.enemies = position.pieces(color.opponent)
        self.pieces = position.occupied
        self.far_row = ROWS[color.promotion_row]
        self.man_directions = _ALL_DIRECTIONS if rules.men_capture_backward else _FORWARD[color]
        self.man_jumps = _SHORT_JUMPS[self.man_directions]
        self.flying = rules.flying_kings
        self.crown_mid_capture = rules.mid_capture_crowning is MidCaptureCrowning.CROWNS
        self.occupied = 0
        self.found: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def captures_from(self, start: int, is_king: bool) -> dict[tuple[int, int], list[tuple[int, ...]]]:
        """``{(to, captured bitboard): routes}``: the complete captures of the piece on ``start``.

        Each route is one order of taking the pieces (see :class:`Move` for its squares)."""
        self.occupied = self.pieces & ~BIT[start]
        self.found = {}
        if is_king and self.flying:
            self._king(start, 0, (start,), _ALL_DIRECTIONS)
        else:
            self._short(start, 0, (start,), is_king)
        return self.found

    def _end(self, square: int, captured: int, route: tuple[int, ...]) -> None:
        # Routes with the same end and captured pieces are one move (rules.md).
        self.found.setdefault((square, captured), []).append(route)

    def _short(self, square: int, captured: int, route: tuple[int, ...], is_king: bool) -> bool:
        """Jumps of a man (or of a king that is not flying): over an adjacent opposing piece
        onto the empty square right behind it (4.1). Returns whether any jump was possible."""
        jumped = False
        jumps = (_SHORT_JUMPS[_ALL_DIRECTIONS] if is_king else self.man_jumps)[square]
        for direction, over_bit, landing, landing_bit in jumps:
            if not self.enemies & over_bit or captured & over_bit or self.occupied & landing_bit:
                continue
            jumped = True
            now_captured = captured | over_bit
            now_route = route + (landing,)
            if not is_king and self.crown_mid_capture and landing_bit & self.far_row:
                if self.flying:
                    goes_on = self._king(landing, now_captured, now_route, _ONWARD[direction])
                else:
                    goes_on = self._short(landing, now_captured, now_route, True)
            else:
                goes_on = self._short(landing, now_captured, now_route, is_king)
            if not goes_on:
                self._end(landing, now_captured, now_route)
        return jumped

    def _king(
        self, square: int, captured: int, route: tuple[int, ...], directions: tuple[Direction, ...]
    ) -> bool:
        """Jumps of a flying king (4.3) from ``square`` toward ``directions``.

        After a jump the king may stop on any empty square beyond the piece, but while the
        capture can go on from some of them it must choose one of those (4.6, 4.13). Going
        straight on meets the same next piece from every landing square, so that branch is
        followed once, from the square right behind the captured piece (as PDN writes it).
        Returns whether any jump was possible.
        """
        jumped = False
        for direction in directions:
            jump = self._king_jump(square, direction, captured)
            if jump is None:
                continue
            jumped = True
            over_bit, landings = jump
            now_captured = captured | over_bit
            first = landings[0]
            straight_on = self._king(first, now_captured, route + (first,), (direction,))
            turns = _TURNS[direction]
            dead_ends = [
                landing
                for landing in landings
                if not self._king(landing, now_captured, route + (landing,), turns) and not straight_on
            ]
            if len(dead_ends) == len(landings):  # the capture cannot go on: it ends here
                for landing in landings:
                    self._end(landing, now_captured, route + (landing,))
        return jumped

    def _king_jump(self, square: int, direction: Direction, captured: int) -> tuple[int, list[int]] | None:
        """The piece a flying king on ``square`` can jump toward ``direction`` and the empty
        squares it may land on, or None: the first piece met must be an opposing piece not yet
        captured, with at least one empty square right behind it."""
        ray = RAYS[square][direction]
        occupied = self.occupied
        for index, over in enumerate(ray):
            over_bit = BIT[over]
            if not occupied & over_bit:
                continue
            if not self.enemies & over_bit or captured & over_bit:
                return None
            landings = []
            for landing in ray[index + 1 :]:
                if occupied & BIT[landing]:
                    break
                landings.append(landing)
            return (over_bit, landings) if landings else None
        return None


def _men_that_can_jump(men: int, enemies: int, empty: int, color: Color, backward: bool) -> int:
    """The men with an opposing piece next to them and an empty square right behind it.

    Seen from the landing squares: step back over an opposing piece, then onto a man.
    """
    jumpers = 0
    if backward or color is Color.WHITE:  # jumps toward squares 1-5: look back with left shifts
        jumpers |= (((empty << 6) & enemies) << 6) | (((empty << 5) & enemies) << 5)
    if backward or color is Color.BLACK:  # jumps toward squares 46-50: look back with right shifts
        jumpers |= (((empty >> 6) & enemies) >> 6) | (((empty >> 5) & enemies) >> 5)
    return jumpers & men


def raw_captures(position: Position, rules: Rules = INTERNATIONAL) -> list[RawMove]:
    """Every complete capture of the side to move, before the choice rule of 4.13/4.14."""
    if position.turn is Color.WHITE:
        men, kings, enemies = (
            position.white_men,
            position.white_kings,
            position.black_men | position.black_kings,
        )
    else:
        men, kings, enemies = (
            position.black_men,
            position.black_kings,
            position.white_men | position.white_kings,
        )
    empty = ALL_SQUARES & ~(men | kings | enemies)
    jumpers = _men_that_can_jump(men, enemies, empty, position.turn, rules.men_capture_backward)
    if not (jumpers or kings):
        return []
    search = _CaptureSearch(position, rules)
    captures: list[RawMove] = []
    for is_king, board in ((False, jumpers), (True, kings)):
        for start in squares_of(board):
            for (to_square, captured), routes in search.captures_from(start, is_king).items():
                captures.append((start, to_square, captured, routes[0]))
    return captures


def capture_routes(position: Position, rules: Rules = INTERNATIONAL) -> dict[Move, list[tuple[int, ...]]]:
    """Every legal capture with all its routes (distinct orders of taking the pieces)."""
    legal = set(legal_moves(position, rules))
    color = position.turn
    search = _CaptureSearch(position, rules)
    routes_of: dict[Move, list[tuple[int, ...]]] = {}
    for is_king, board in ((False, position.men(color)), (True, position.kings(color))):
        for start in squares_of(board):
            for (to_square, captured), routes in search.captures_from(start, is_king).items():
                move = _make_move(start, to_square, frozenset(squares_of(captured)), routes[0])
                if move in legal:
                    routes_of[move] = routes
    return routes_of


def _legal_captures(position: Position, rules: Rules) -> list[RawMove]:
    """The captures the choice rule allows: the most pieces (4.13), or any (free choice)."""
    captures = raw_captures(position, rules)
    if captures and rules.capture_choice is CaptureChoice.MAXIMUM:
        most = max(captured.bit_count() for _, _, captured, _ in captures)
        captures = [move for move in captures if move[2].bit_count() == most]
    return captures


def _own_pieces(position: Position) -> tuple[int, int, int]:
    """(men, kings, occupied) of the side to move."""
    occupied = position.white_men | position.white_kings | position.black_men | position.black_kings
    if position.turn is Color.WHITE:
        return position.white_men, position.white_kings, occupied
    return position.black_men, position.black_kings, occupied


def raw_legal_moves(position: Position, rules: Rules = INTERNATIONAL) -> list[RawMove]:
    """The legal moves as raw tuples (see :func:`legal_moves`)."""
    captures = _legal_captures(position, rules)
    if captures:
        return captures
    men, kings, occupied = _own_pieces(position)
    steps = _man_steps(men, ALL_SQUARES & ~occupied, position.turn)
    if kings:
        steps += _king_steps(kings, occupied, rules.flying_kings)
    return steps


def count_legal_moves(position: Position, rules: Rules = INTERNATIONAL) -> int:
    """How many legal moves there are, without building the steps (perft's last ply counts this)."""
    captures = _legal_captures(position, rules)
    if captures:
        return len(captures)
    men, kings, occupied = _own_pieces(position)
    empty = ALL_SQUARES & ~occupied
    count = 0
    for shift in _FORWARD_SHIFTS[position.turn]:  # every man's step at once, as in _man_steps
        count += ((men >> -shift if shift < 0 else men << shift) & empty).bit_count()
    if kings:
        count += len(_king_steps(kings, occupied, rules.flying_kings))
    return count


def _to_move(raw: RawMove) -> Move:
    from_square, to_square, captured, route = raw
    return _make_move(from_square, to_square, frozenset(squares_of(captured)) if captured else _EMPTY, route)


def legal_moves(position: Position, rules: Rules = INTERNATIONAL) -> list[Move]:
    """Every legal move of the side to move (Art. 3, 4), each once.

    Captures if there are any (4.2), else the steps of men and kings. The order is the
    generator's and carries no meaning.
    """
    return [_to_move(raw) for raw in raw_legal_moves(position, rules)]


def all_captures(position: Position, rules: Rules = INTERNATIONAL) -> list[Move]:
    """Every complete capture, of any size: the candidates 4.13 chooses among."""
    return [_to_move(raw) for raw in raw_captures(position, rules)]


def is_lost(position: Position, rules: Rules = INTERNATIONAL) -> bool:
    """Art. 7.2: the side to move has lost when it has no piece or no legal move."""
    return not raw_legal_moves(position, rules)


# -- playing a move ---------------------------------------------------------------------------

_WHITE_FAR_ROW: Final = ROWS[Color.WHITE.promotion_row]
_BLACK_FAR_ROW: Final = ROWS[Color.BLACK.promotion_row]
_new_position = object.__new__
_POSITION_SETTERS: Final = tuple(
    vars(Position)[name].__set__ for name in ("white_men", "white_kings", "black_men", "black_kings", "turn")
)


def _make_position(
    white_men: int, white_kings: int, black_men: int, black_kings: int, turn: Color
) -> Position:
    """Build a Position without the frozen-dataclass __init__ (twice as fast; same object)."""
    position: Position = _new_position(Position)
    set_white_men, set_white_kings, set_black_men, set_black_kings, set_turn = _POSITION_SETTERS
    set_white_men(position, white_men)
    set_white_kings(position, white_kings)
    set_black_men(position, black_men)
    set_black_kings(position, black_kings)
    set_turn(position, turn)
    return position


def apply_raw(position: Position, raw: RawMove, rules: Rules = INTERNATIONAL) -> Position:
    """The position after a raw move, which must be legal (no check is made)."""
    from_square, to_square, captured, route = raw
    from_bit, to_bit = BIT[from_square], BIT[to_square]
    white = position.turn is Color.WHITE
    if white:
        men, kings, far_row = position.white_men, position.white_kings, _WHITE_FAR_ROW
        their_men, their_kings = position.black_men & ~captured, position.black_kings & ~captured
    else:
        men, kings, far_row = position.black_men, position.black_kings, _BLACK_FAR_ROW
        their_men, their_kings = position.white_men & ~captured, position.white_kings & ~captured
    if men & from_bit:
        men ^= from_bit
        crowned = to_bit & far_row or (
            rules.mid_capture_crowning is MidCaptureCrowning.CROWNS and any(BIT[s] & far_row for s in route)
        )
        if crowned:  # Art. 3.5: a man ending its move on the far row becomes a king
            kings |= to_bit
        else:
            men |= to_bit
    else:
        kings = (kings ^ from_bit) | to_bit
    if white:
        return _make_position(men, kings, their_men, their_kings, Color.BLACK)
    return _make_position(their_men, their_kings, men, kings, Color.WHITE)


def play(position: Position, move: Move, rules: Rules = INTERNATIONAL) -> Position:
    """The position after ``move``; raises :class:`IllegalMoveError` if it is not legal here."""
    for raw in raw_legal_moves(position, rules):
        if raw[0] == move.from_square and raw[1] == move.to_square and raw[2] == bitboard(move.captured):
            return apply_raw(position, raw, rules)
    raise IllegalMoveError(f"{move} is not a legal move in {position.fen()}")
