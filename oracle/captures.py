"""Captures: the searches for every complete capture of the side to move (FMJD Art. 4).

Read with rules.md and :mod:`oracle.moves`, which lists the legal moves from these. A capture is
searched one piece at a time on bitboards (:mod:`oracle.board`), each a raw move
``(from, to, captured_bitboard, route)``:

* Capture is compulsory (4.2). A man jumps an adjacent opposing piece, forward or backward
  (4.1), onto the empty square right behind it. A king (3.9, 4.3) passes any number of empty
  squares, jumps one opposing piece and lands on any empty square beyond it.
* A capture goes on while a jump is possible (4.5, 4.6). The pieces it takes stay on the board
  until it is over (4.11): they block the path and may not be jumped twice (4.8). Empty
  squares may be crossed again; the capturing piece's own start square counts as empty.
* Of the complete captures, the ones taking the most pieces are legal, a king counting as one
  piece (4.13) -- :func:`legal_captures`; among those the player chooses freely (4.14).
* A man that passes the far row during a capture stays a man (4.15).

The switches of other games of the family: ``men_capture_backward`` (:attr:`CaptureSearch.man_jumps`),
``flying_kings`` (:meth:`CaptureSearch.captures_from`), ``capture_choice`` (:func:`legal_captures`),
``mid_capture_crowning`` (:meth:`CaptureSearch.reaches_far_row`).
"""

from __future__ import annotations

from typing import Final

from oracle.board import ALL_DIRECTIONS, NORTHWARD, SOUTHWARD, Direction, Geometry
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, MidCaptureCrowning, Rules

RawMove = tuple[int, int, int, tuple[int, ...]]
"""A raw move: (from, to, captured bitboard, route). The searches produce these (the steps of
:mod:`oracle.moves` too); :class:`oracle.moves.Move` is the public face."""

_FORWARD: Final = {Color.WHITE: NORTHWARD, Color.BLACK: SOUTHWARD}
# The two colours as module globals: reading ``Color.WHITE`` goes through the enum class (about
# 90 ns on Python 3.11), a global is read ten times faster; the hot paths below compare with these.
_WHITE: Final = Color.WHITE
_BLACK: Final = Color.BLACK
_ALL_DIRECTIONS: Final = ALL_DIRECTIONS
#: The two directions at right angles to a direction: where a king can turn after a jump.
_TURNS: Final = {d: tuple(t for t in Direction if t not in (d, d.opposite)) for d in Direction}
#: Every direction but straight back over the piece just jumped.
_ONWARD: Final = {d: tuple(t for t in Direction if t is not d.opposite) for d in Direction}


class CaptureSearch:
    """Every complete capture of the side to move, one piece at a time (Art. 4).

    ``occupied`` holds every piece but the capturing one -- its start square counts as
    empty -- and the captured pieces stay in it until the capture is over (4.11): they block
    the way, and a piece already captured is never jumped again (4.8).
    """

    def __init__(self, position: Position, rules: Rules) -> None:
        color = position.turn
        board = rules.geometry
        self.bit, self.rays = board.bit, board.rays
        self.enemies = position.pieces(color.opponent)
        self.pieces = position.occupied
        # mid_capture_crowning: the far row squares where a man's capture meets the switch. Under
        # "passes" (FMJD 4.15) there are none: the man goes on as a man, as from any square.
        far_row = board.top_row if color is _WHITE else board.bottom_row
        self.crowning_row = 0 if rules.mid_capture_crowning is MidCaptureCrowning.PASSES else far_row
        # men_capture_backward: a man jumps in all four directions, or forward only.
        self.man_directions = _ALL_DIRECTIONS if rules.men_capture_backward else _FORWARD[color]
        self.man_jumps = board.short_jumps[self.man_directions]
        self.king_jumps = board.short_jumps[_ALL_DIRECTIONS]
        self.flying = rules.flying_kings
        self.crowning = rules.mid_capture_crowning
        self.occupied = 0
        self.found: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def captures_from(self, start: int, is_king: bool) -> dict[tuple[int, int], list[tuple[int, ...]]]:
        """``{(to, captured bitboard): routes}``: the complete captures of the piece on ``start``.

        Each route is one order of taking the pieces (see :class:`Move` for its squares)."""
        self.occupied = self.pieces & ~self.bit[start]
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
        jumps = (self.king_jumps if is_king else self.man_jumps)[square]
        for direction, over_bit, landing, landing_bit in jumps:
            if not self.enemies & over_bit or captured & over_bit or self.occupied & landing_bit:
                continue
            jumped = True
            now_captured = captured | over_bit
            now_route = route + (landing,)
            if not is_king and landing_bit & self.crowning_row:
                goes_on = self.reaches_far_row(landing, now_captured, now_route, direction)
            else:
                goes_on = self._short(landing, now_captured, now_route, is_king)
            if not goes_on:
                self._end(landing, now_captured, now_route)
        return jumped

    def reaches_far_row(
        self, landing: int, captured: int, route: tuple[int, ...], direction: Direction
    ) -> bool:
        """A man has jumped onto the far row mid-capture, and ``mid_capture_crowning`` is not
        "passes" (where it goes on as a man, like from any other square: see ``crowning_row``).

        Returns whether the capture goes on from ``landing`` (else it ends there)."""
        if self.crowning is MidCaptureCrowning.STOPS:  # American: crowned, and the move ends here
            return False
        # CONTINUES (Russian): crowned at once, it goes on capturing as a king
        if self.flying:
            return self._king(landing, captured, route, _ONWARD[direction])
        return self._short(landing, captured, route, True)

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
        ray = self.rays[square][direction]
        occupied, bit = self.occupied, self.bit
        for index, over in enumerate(ray):
            over_bit = bit[over]
            if not occupied & over_bit:
                continue
            if not self.enemies & over_bit or captured & over_bit:
                return None
            landings = []
            for landing in ray[index + 1 :]:
                if occupied & bit[landing]:
                    break
                landings.append(landing)
            return (over_bit, landings) if landings else None
        return None


def _men_that_can_jump(
    men: int, enemies: int, empty: int, color: Color, backward: bool, board: Geometry
) -> int:
    """The men with an opposing piece next to them and an empty square right behind it.

    Seen from the landing squares: step back over an opposing piece, then onto a man.
    """
    long, short = board.per_row + 1, board.per_row  # the diagonal shifts (6 and 5 on 10x10)
    jumpers = 0
    if backward or color is _WHITE:  # jumps toward square 1: look back with left shifts
        jumpers |= (((empty << long) & enemies) << long) | (((empty << short) & enemies) << short)
    if backward or color is _BLACK:  # jumps toward the last row: look back with right shifts
        jumpers |= (((empty >> long) & enemies) >> long) | (((empty >> short) & enemies) >> short)
    return jumpers & men


def _a_king_can_jump(kings: int, enemies: int, empty: int, flying: bool, board: Geometry) -> bool:
    """Whether some king has a first jump: along a diagonal, past empty squares (any number for a
    flying king, 4.3; none for a short one), an opposing piece with an empty square right behind it.

    Every king is walked along each direction at once, as in :func:`_men_that_can_jump`; a step
    off the board lands on a ghost bit or outside the board, in neither ``empty`` nor ``enemies``.
    """
    for shift in board.shift.values():
        reach = kings
        if flying:
            frontier = kings
            while frontier:
                frontier = (frontier << shift if shift > 0 else frontier >> -shift) & empty
                reach |= frontier
        over = (reach << shift if shift > 0 else reach >> -shift) & enemies
        if (over << shift if shift > 0 else over >> -shift) & empty:
            return True
    return False


def raw_captures(position: Position, rules: Rules = INTERNATIONAL) -> list[RawMove]:
    """Every complete capture of the side to move, before the choice rule of 4.13/4.14."""
    if position.turn is _WHITE:
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
    geometry = rules.geometry
    empty = geometry.all_squares & ~(men | kings | enemies)
    jumpers = _men_that_can_jump(men, enemies, empty, position.turn, rules.men_capture_backward, geometry)
    if kings and not _a_king_can_jump(kings, enemies, empty, rules.flying_kings, geometry):
        kings = 0  # no king has a jump: none is searched
    if not (jumpers or kings):
        return []
    search = CaptureSearch(position, rules)
    captures: list[RawMove] = []
    squares_of = geometry.squares_of
    for is_king, board in ((False, jumpers), (True, kings)):
        for start in squares_of(board):
            for (to_square, captured), routes in search.captures_from(start, is_king).items():
                captures.append((start, to_square, captured, routes[0]))
    return captures


def legal_captures(position: Position, rules: Rules) -> list[RawMove]:
    """The captures ``capture_choice`` allows: the most pieces (4.13), or any complete one (free)."""
    captures = raw_captures(position, rules)
    if captures and rules.capture_choice is CaptureChoice.MAXIMUM:  # free: every complete capture
        most = max(captured.bit_count() for _, _, captured, _ in captures)
        captures = [move for move in captures if move[2].bit_count() == most]
    return captures
