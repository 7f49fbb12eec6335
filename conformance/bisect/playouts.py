"""Random games from the start, for the differences no short line reaches.

Kings take dozens of plies to appear: a mutant whose bug only shows with a king on the board (a
king stepping one square, a king capture landing right behind the piece) agrees with the oracle in
every position up to 7 plies from the start position, so neither perft nor the breadth-first
search of :mod:`conformance.bisect.search` can find it from there. :func:`playouts` plays seeded
random games instead (each move drawn uniformly from the oracle's legal moves) and compares the
engine's legal moves with the oracle's at every ply. The first game with a difference gives a line;
the games after it, each cut at the best length so far, look for a shorter one within a budget.

The line found is a real line from the start (every position before its last agrees), but not
necessarily the shortest one: that is what the breadth-first search, run first, proves up to its
depth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, Protocol, TypeVar

from oracle.moves import Move, legal_moves, play
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules


class Line(Protocol):
    """A difference found on a line: all a playout needs of it is its length."""

    @property
    def plies(self) -> int: ...


Found = TypeVar("Found", bound=Line, covariant=True)


class Comparer(Protocol[Found]):
    """What a playout asks at every ply (:class:`conformance.bisect.search._Asker` answers it):
    the difference at ``position``, reached from ``root`` by ``line``, or None where they agree."""

    def compare(self, root: Position, line: tuple[Move, ...], position: Position) -> Found | None: ...


DEFAULT_GAMES: Final = 1000
"""Random games played when no line up to the search depth differs (0: none)."""
DEFAULT_PLIES: Final = 200
"""The longest random game: long enough for men to crown and kings to meet."""
SHORTER_TRIES: Final = 100
"""Games played after the first difference, looking for a shorter line."""


def playouts(
    asker: Comparer[Found],
    root: Position,
    games: int,
    plies: int,
    seed: int,
    say: Callable[[str], None],
    rules: Rules = INTERNATIONAL,
) -> tuple[Found | None, int]:
    """The shortest difference met in up to ``games`` random games of up to ``plies`` plies from
    ``root`` (game ``g`` drawn with the seed ``"{seed}:{g}"``), and the number of games played."""
    best: Found | None = None
    first = 0
    played = 0
    for game in range(games):
        if best is not None and game - first >= SHORTER_TRIES:
            break
        if game and game % 100 == 0:
            say(f"{game} random games played" + (f", shortest line {best.plies} plies" if best else ""))
        limit = plies if best is None else best.plies - 1
        found = _one_game(asker, root, random.Random(f"{seed}:{game}"), limit, rules)
        played += 1
        if found is not None and (best is None or found.plies < best.plies):
            if best is None:
                first = game
                say(f"random game {game}: the legal moves differ after {found.plies} plies")
            best = found
    return best, played


def _in_order(move: Move) -> tuple[int, int, list[int]]:
    return (move.from_square, move.to_square, sorted(move.captured))


def _one_game(
    asker: Comparer[Found], root: Position, rng: random.Random, plies: int, rules: Rules
) -> Found | None:
    line: tuple[Move, ...] = ()
    position = root
    for _ in range(plies + 1):
        found = asker.compare(root, line, position)
        if found is not None:
            return found
        if len(line) == plies:
            return None
        moves = sorted(legal_moves(position, rules), key=_in_order)  # a fixed order: the seed alone picks
        if not moves:
            return None
        move = rng.choice(moves)
        line, position = (*line, move), play(position, move, rules)
    return None
