"""The 6.3 and 6.4 counts applied against a lone man as against a lone king (seen in engines that
test "one piece" instead of "one king"). It breaks the reading endgame-lone-king-only only."""

from __future__ import annotations

from _serve import run

from conformance.engines.oracle_engine import OracleEngine
from oracle.game import Game
from oracle.position import Color, Position
from oracle.rules import Ending


class LoneManCountGame(Game):
    def ending_of(self, position: Position) -> Ending | None:
        for strong in (Color.WHITE, Color.BLACK):
            weak = strong.opponent
            if (position.men(weak) | position.kings(weak)).bit_count() == 1:
                kings, men = position.kings(strong).bit_count(), position.men(strong).bit_count()
                if kings + men:
                    return Ending(kings, men)
        return None


run("lone-man-count", OracleEngine, LoneManCountGame)
