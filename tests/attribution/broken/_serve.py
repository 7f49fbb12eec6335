"""Serve a broken engine over JSON-lines (docs/protocol.md): the oracle with one bug of a real
engine's kind, answering every capability with the bug (``play`` and ``outcome`` alike)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from conformance.engines.oracle_engine import OracleEngine
from conformance.servers.oracle_jsonl import serve
from oracle.counters import Counters
from oracle.game import Game
from oracle.moves import Move
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules


def run(name: str, engine: type[OracleEngine], game: type[Game]) -> None:
    def factory(position: Position, counters: Counters, rules: Rules) -> Game:
        return game(position, counters, rules)

    served = engine(INTERNATIONAL, name=name, game_factory=factory)
    sys.exit(serve(served, sys.stdin.buffer, sys.stdout.buffer, sys.stderr))


After = Callable[[Position, Move, Position], Position]
"""What the broken engine makes of the position after a legal move (before, move, the rules' after)."""


def run_playing(name: str, after: After) -> None:
    """Serve the oracle whose ``play`` and games leave the positions ``after`` makes."""

    class Engine(OracleEngine):
        def apply(self, position: Position, move: Move) -> Position:
            return after(position, move, super().apply(position, move))

    class Playing(Game):
        def position_after(self, position: Position, move: Move) -> Position:
            return after(position, move, super().position_after(position, move))

    run(name, Engine, Playing)
