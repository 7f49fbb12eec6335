"""The capture mutants' own search: a deliberately plain capture search, written apart from the
oracle's, whose every flag is one classic mistake (:class:`CaptureBugs`), and the engine that
answers every capability with it (:class:`CaptureMutant`). With no flag set it agrees with the
oracle, which a test checks, so that a kill means the bug was noticed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from conformance.core.protocol import EngineDeclined, MoveSpec
from conformance.engines.oracle_engine import OracleEngine
from oracle.board import RAYS, Direction, bitboard
from oracle.counters import Counters
from oracle.game import Game
from oracle.moves import Move, apply_raw
from oracle.notation import Notation, parse_among
from oracle.position import Color, Kind, Piece, Position
from oracle.rules import INTERNATIONAL, Rules

RawCapture = tuple[int, int, frozenset[int], tuple[int, ...]]
"""A move as the plain search gives it: (from, to, captured squares, route)."""

_NORTH = (Direction.NORTH_WEST, Direction.NORTH_EAST)
_SOUTH = (Direction.SOUTH_WEST, Direction.SOUTH_EAST)


@dataclasses.dataclass(frozen=True)
class CaptureBugs:
    """One flag per classic capture bug; all off = the rules of international draughts."""

    removed_at_once: bool = False
    """Captured pieces leave the board as they are jumped (4.11 broken: they no longer block)."""
    jump_twice: bool = False
    """A captured piece may be jumped again (4.8 broken); once per capture, so the search ends."""
    start_occupied: bool = False
    """The capturing piece's start square stays occupied (it cannot pass or end there)."""
    no_recrossing: bool = False
    """An empty square may not be crossed a second time during one capture (4.8 broken; the start
    square, empty once the piece leaves it, may be crossed once)."""
    king_weight: int = 1
    """How many pieces a captured king counts for in 4.13 (2 = 'a king counts double')."""
    prefer_taking_kings: bool = False
    """Among maximal captures, only those taking the most kings (4.14 broken)."""
    prefer_capturing_king: bool = False
    """Among maximal captures, only those made by a king, if any (4.14 broken)."""
    king_lands_right_behind: bool = False
    """A flying king may only land on the square right behind the piece it jumps (4.3 broken)."""
    captures_optional: bool = False
    """Steps stay legal when a capture exists (4.2 broken)."""
    duplicate_routes: bool = False
    """Every route is listed as a move of its own (move identity broken)."""
    kings_step_one: bool = False
    """Kings move (but still capture) only one square at a time (3.9 broken)."""
    # -- the readings of cases/articles.yaml about captures and moves, read the other way --
    no_loop: bool = False
    """A capture may not end on its start square (start-square-empty broken, as 4.8 reads it)."""
    start_not_crossed: bool = False
    """A capture may not pass over its start square (start-square-empty broken, as 4.13 reads it)."""
    same_ends_one_move: bool = False
    """Captures with the same start and end are one move (move-identity broken, Art. 8)."""

    def routes(self, position: Position) -> dict[tuple[int, int, frozenset[int]], list[tuple[int, ...]]]:
        """Every route of every complete capture under these bugs, by (from, to, captured)."""
        found: dict[tuple[int, int, frozenset[int]], list[tuple[int, ...]]] = {}
        for from_square, to_square, captured, route in self._captures(position):
            found.setdefault((from_square, to_square, captured), []).append(route)
        return found

    def legal_moves(self, position: Position) -> list[RawCapture]:
        """The legal moves under these bugs: (from, to, captured, route), maybe with repeats."""
        captures = list(self._captures(position))
        steps = self._steps(position)
        if not captures:
            return steps
        weight = {route: self._weight(position, captured) for _, _, captured, route in captures}
        best = max(weight.values())
        chosen = [c for c in captures if weight[c[3]] == best]
        if self.prefer_taking_kings:
            most = max(self._kings_taken(position, c[2]) for c in chosen)
            chosen = [c for c in chosen if self._kings_taken(position, c[2]) == most]
        if self.prefer_capturing_king:
            by_king = [c for c in chosen if position.kings(position.turn) & bitboard([c[0]])]
            chosen = by_king or chosen
        if not self.duplicate_routes:
            unique: dict[tuple[int, int, frozenset[int]] | tuple[int, int], RawCapture] = {}
            for capture in chosen:
                key = capture[:2] if self.same_ends_one_move else capture[:3]
                unique.setdefault(key, capture)
            chosen = list(unique.values())
        return chosen + steps if self.captures_optional else chosen

    def _weight(self, position: Position, captured: frozenset[int]) -> int:
        return len(captured) + (self.king_weight - 1) * self._kings_taken(position, captured)

    @staticmethod
    def _kings_taken(position: Position, captured: frozenset[int]) -> int:
        return (position.kings(position.turn.opponent) & bitboard(captured)).bit_count()

    def _steps(self, position: Position) -> list[RawCapture]:
        color = position.turn
        occupied = set(position.squares(Color.WHITE)) | set(position.squares(Color.BLACK))
        steps: list[RawCapture] = []
        for square in position.squares(color, Kind.MAN):
            for direction in _NORTH if color is Color.WHITE else _SOUTH:
                ray = RAYS[square][direction]
                if ray and ray[0] not in occupied:
                    steps.append((square, ray[0], frozenset(), (square, ray[0])))
        for square in position.squares(color, Kind.KING):
            for ray in RAYS[square]:
                for target in ray[: 1 if self.kings_step_one else None]:
                    if target in occupied:
                        break
                    steps.append((square, target, frozenset(), (square, target)))
        return steps

    def _captures(self, position: Position) -> Iterator[RawCapture]:
        color = position.turn
        enemies = frozenset(position.squares(color.opponent))
        pieces = frozenset(position.squares(color)) | enemies
        for start in position.squares(color):
            search = _Search(
                bugs=self,
                start=start,
                is_king=position.piece_at(start) == Piece(color, Kind.KING),
                enemies=enemies,
                occupied=pieces if self.start_occupied else pieces - {start},
            )
            yield from search.extend(start, (), frozenset(), (start,))


@dataclasses.dataclass(frozen=True)
class _Search:
    """The capture of one piece: every complete sequence of jumps, under the bugs' flags."""

    bugs: CaptureBugs
    start: int
    is_king: bool
    enemies: frozenset[int]
    occupied: frozenset[int]

    def blocked(self, square: int, taken: tuple[int, ...]) -> bool:
        return square in self.occupied and not (self.bugs.removed_at_once and square in taken)

    def extend(
        self, square: int, taken: tuple[int, ...], crossed: frozenset[int], route: tuple[int, ...]
    ) -> Iterator[RawCapture]:
        bugs, jumped = self.bugs, False
        for direction in Direction:
            ray = RAYS[square][direction]
            index, passed = 0, []
            if self.is_king:  # a king slides to the first piece on the diagonal
                while index < len(ray) and not self.blocked(ray[index], taken):
                    passed.append(ray[index])
                    index += 1
            if index >= len(ray) - 1 or ray[index] not in self.enemies:
                continue
            over = ray[index]
            if over in taken and (not bugs.jump_twice or len(set(taken)) < len(taken)):
                continue  # jump_twice: one piece may be jumped a second time (once per capture)
            landings = []
            for landing in ray[index + 1 :]:
                if self.blocked(landing, taken):
                    break
                landings.append(landing)
                if not self.is_king or bugs.king_lands_right_behind:
                    break
            for landing in landings:
                path = [*passed, over, *ray[index + 1 : ray.index(landing) + 1]]
                if bugs.no_recrossing and crossed & set(path):
                    continue
                if bugs.start_not_crossed and self.start in path[:-1]:
                    continue
                jumped = True
                yield from self.extend(landing, (*taken, over), crossed | set(path), (*route, landing))
        if not jumped and taken and not (bugs.no_loop and square == self.start):
            yield (self.start, square, frozenset(taken), route)


class CaptureMutant(OracleEngine):
    """The oracle, with its moves generated under one capture bug -- for every capability: the
    legal moves, counts and perft, the moves a game accepts and plays (``play``, ``outcome``), and
    what a move text means or how a move is written (``parse_move``, ``format_move``)."""

    def __init__(self, name: str, bugs: CaptureBugs) -> None:
        super().__init__(INTERNATIONAL, name=name, game_factory=self._game)
        self.bugs = bugs

    def _game(self, position: Position, counters: Counters, rules: Rules) -> Game:
        return _BuggyGame(position, counters, rules, self)

    def _raw(self, fen: str) -> list[RawCapture]:
        return self.bugs.legal_moves(Position.from_fen(fen))

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        return [MoveSpec(a, b, captured) for a, b, captured, _ in self._raw(fen)]

    def move_count(self, fen: str) -> int:
        return len(self._raw(fen))

    def perft(self, fen: str, depth: int) -> int:
        if depth > 3:
            raise EngineDeclined("mutants count perft to depth 3 only (slow plain search)")

        def count(position: Position, depth: int) -> int:
            moves = self.bugs.legal_moves(position)
            if depth == 1:
                return len(moves)
            return sum(count(_apply(position, move), depth - 1) for move in moves)

        return count(Position.from_fen(fen), depth)

    def moves_in(self, position: Position) -> list[Move]:
        unique: dict[tuple[int, int, frozenset[int]], tuple[int, ...]] = {}
        for a, b, captured, route in self.bugs.legal_moves(position):
            unique.setdefault((a, b, captured), route)  # the first route found: right behind a piece
        return [Move(a, b, captured, route) for (a, b, captured), route in unique.items()]

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        moves = self.moves_in(position)

        def routes() -> dict[Move, list[tuple[int, ...]]]:
            every = self.bugs.routes(position)
            return {move: every.get(move.key, [move.route]) for move in moves}

        return parse_among(position, text, notation, moves, routes)

    def apply(self, position: Position, move: Move) -> Position:
        return _apply(position, (move.from_square, move.to_square, move.captured, move.route))

    def choose_move(self, fen: str) -> MoveSpec | None:
        moves = self._raw(fen)
        return MoveSpec(*moves[0][:3]) if moves else None


class _BuggyGame(Game):
    """A game whose moves are a capture mutant's (the draw rules are the oracle's)."""

    def __init__(self, position: Position, counters: Counters, rules: Rules, engine: CaptureMutant) -> None:
        self._engine = engine
        super().__init__(position, counters, rules)

    def moves_in(self, position: Position) -> list[Move]:
        return self._engine.moves_in(position)

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        return self._engine.read_move(position, text, notation)


def _apply(position: Position, move: RawCapture) -> Position:
    from_square, to_square, captured, route = move
    return apply_raw(position, (from_square, to_square, bitboard(captured), route))


def unmutated_capture_search() -> CaptureMutant:
    """The plain capture search with no bug: it must agree with the oracle (a test checks it)."""
    return CaptureMutant("plain-capture-search", CaptureBugs())
