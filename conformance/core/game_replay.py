"""The last game replayed from a setup, kept so that a longer prefix of the same moves goes on from it.

``verify`` asks the outcome of a steered draw game after many prefixes of it, shortest first
(:meth:`conformance.verify.draw_campaigns.DrawGame.questions`), and the oracle answers on both sides
(the judge's expectation, the built-in oracle engine's answer). Replayed from the setup each time,
that is prefixes x length plies; going on from the game of the previous prefix plays the game once.

Going on is exact for any :class:`~oracle.game.Game`, a mutant's subclass included: the game of
``m1..mk`` then ``m(k+1)..mn`` has had the same calls of :meth:`~oracle.game.Game.play`, in the same
order, as the game of ``m1..mn`` played in one go -- only reads (its outcome, whether it is over)
came between. Nothing is ever undone. The game is taken out of the memory while it is played and
put back only when the caller is done with it, so a replay cut short (an illegal move, the alarm of
a time-out) is never reused. One game is kept: the memory of a run stays flat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from oracle.game import Game


@dataclasses.dataclass(frozen=True)
class _Kept:
    setup: object
    played: tuple[str, ...]
    game: Game


class GameReplay:
    """Keeps the last game played from a setup (:meth:`keep`) for a longer prefix of its moves (:meth:`take`).

    A *setup* is whatever a new game would be built from (position or FEN, counters, rules, the
    kind of game), as a value compared with ``==``: a game is reused only from an equal setup.
    """

    def __init__(self) -> None:
        self._kept: _Kept | None = None

    def take(self, setup: object, moves: Sequence[str]) -> Game | None:
        """The kept game, taken out, if it was played from ``setup`` with the first ``game.ply`` of
        ``moves`` (as text, alike); None otherwise (then nothing is kept any longer either)."""
        kept, self._kept = self._kept, None
        if kept is None or kept.setup != setup or tuple(moves[: len(kept.played)]) != kept.played:
            return None
        return kept.game

    def keep(self, setup: object, moves: Sequence[str], game: Game) -> None:
        """Keep ``game``, played from ``setup`` with the first ``game.ply`` of ``moves``."""
        self._kept = _Kept(setup, tuple(moves[: game.ply]), game)

    def forget(self) -> None:
        self._kept = None
