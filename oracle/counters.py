"""The Art. 6 counters of a setup position, and which of them a game can reach.

Counters are part of a game, not of a position (rules.md). A game that starts in the middle of a
count is given :class:`Counters`; in case files they are written::

    counters: {occurrences: 2, no_progress_plies: 10, endgame_plies: 10}

* ``occurrences`` (default 1): how many times the setup position has occurred, this occurrence
  included.
* ``no_progress_plies`` (default 0): the Art. 6.2 count, the plies just played that were all king
  moves without capture.
* ``endgame_plies`` (default 0): the Art. 6.3/6.4 count, the plies played since the ending arose;
  0 means it arises at the setup position, and it must be 0 when the position is no such ending.

The game refuses (:class:`~oracle.errors.SetupError`, :func:`check_counters`) counters that no game
can reach:

1. ``occurrences`` below 1, or at or past the repetition limit (the game would already be over);
   ``no_progress_plies`` at or past the 6.2 limit; ``endgame_plies`` at or past the limit of the
   position's group.
2. ``endgame_plies`` above 0 on a position that is not an ending of a group of the rules.
3. ``no_progress_plies`` of 1 or more when the side that just moved has no king (its last move was
   not a king move), and of 2 or more when the side to move has no king either (the ply before
   was its king move). Kings only disappear by capture, which would have reset the count.
4. ``occurrences`` of k >= 2 with ``no_progress_plies`` below 4 (k - 1): between two occurrences of
   a position only king moves without capture were played (a man move or a capture can never be
   undone), and each side needs at least two of them to bring its pieces back.
5. In an ending, ``no_progress_plies`` above ``endgame_plies``: an ending arises only by a capture
   or a promotion, and either resets the 6.2 count (so do the restarts of ``restarts_on_change``).

A running game reports its counters the same way (:meth:`oracle.game.Game.counters`), and the
running Art. 6.3/6.4 count as an :class:`EndgameClock`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from oracle.errors import SetupError, excerpt, key_text
from oracle.position import Position
from oracle.rules import INTERNATIONAL, EndgameCount, Rules

MAX_COUNTER_DIGITS: Final = 9
"""A counter is below 10**9: no game lasts that long (and larger numbers are refused unread)."""


@dataclasses.dataclass(frozen=True)
class EndgameClock:
    """The running count of Art. 6.3 or 6.4: its article, the plies since the ending arose, the limit."""

    article: str
    plies: int
    limit: int

    @property
    def remaining(self) -> int:
        """Plies left before the draw (0: the draw is reached)."""
        return max(self.limit - self.plies, 0)


@dataclasses.dataclass(frozen=True)
class Counters:
    """The Art. 6 counters of a setup position (see the module docstring for the checks).

    ``occurrences``: times the setup position has occurred, this one included (6.1);
    ``no_progress_plies``: the 6.2 count; ``endgame_plies``: plies since the 6.3/6.4 ending arose.
    """

    occurrences: int = 1
    no_progress_plies: int = 0
    endgame_plies: int = 0

    KEYS: ClassVar[tuple[str, ...]] = ("occurrences", "no_progress_plies", "endgame_plies")

    def __post_init__(self) -> None:
        for name in self.KEYS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise SetupError(f"counter {name} must be a whole number, not {excerpt(value)}")
            if not -(10**MAX_COUNTER_DIGITS) < value < 10**MAX_COUNTER_DIGITS:
                raise SetupError(
                    f"counter {name} must be below 10**{MAX_COUNTER_DIGITS} (no game lasts that long), "
                    f"not {excerpt(value)}"
                )
        if self.occurrences < 1:
            raise SetupError(
                f"counter occurrences must be 1 or more (the setup position occurs at least once), "
                f"not {self.occurrences}"
            )
        for name in ("no_progress_plies", "endgame_plies"):
            if getattr(self, name) < 0:
                raise SetupError(f"counter {name} must be 0 or more, not {getattr(self, name)}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Counters:
        """Counters from ``{occurrences: .., no_progress_plies: .., endgame_plies: ..}`` (each optional)."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise SetupError(
                f"counters must be a mapping like {{occurrences: 2, no_progress_plies: 4}}, not {excerpt(data)}"
            )
        unknown = [key_text(key) for key in data if key not in cls.KEYS]
        if unknown:
            raise SetupError(
                f"unknown counter(s) {', '.join(sorted(unknown))}: the counters are {', '.join(cls.KEYS)}"
            )
        return cls(**{str(key): value for key, value in data.items()})

    def to_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.KEYS}

    @property
    def is_default(self) -> bool:
        return self == Counters()

    def __str__(self) -> str:
        return ", ".join(f"{name}={value}" for name, value in self.to_dict().items())


def check_counters(
    position: Position, counters: Counters, group: EndgameCount | None, rules: Rules = INTERNATIONAL
) -> None:
    """Raise :class:`SetupError` unless ``counters`` fit ``position`` under ``rules`` (the checks
    listed in the module docstring; each failure names the counter and why). ``group`` is the
    Art. 6.3/6.4 group of the position's ending, or None: the game's
    (:meth:`oracle.game.Game.endgame_group`)."""

    def refuse(why: str) -> SetupError:
        return SetupError(f"counters ({counters}) do not fit {position.fen()}: {why}")

    if rules.repetition_draw is not None and counters.occurrences >= rules.repetition_draw:
        raise refuse(
            f"occurrences={counters.occurrences} reaches the repetition limit "
            f"({rules.repetition_draw}): the game would already be drawn (Art. 6.1)"
        )
    if rules.no_progress_moves is not None and counters.no_progress_plies >= 2 * rules.no_progress_moves:
        raise refuse(
            f"no_progress_plies={counters.no_progress_plies} reaches the limit of "
            f"{2 * rules.no_progress_moves} plies: the game would already be drawn (Art. 6.2)"
        )
    if group is None and counters.endgame_plies:
        raise refuse(
            f"endgame_plies={counters.endgame_plies}, but the position is not an ending of "
            "Art. 6.3/6.4 under these rules (it must be 0 here)"
        )
    if group is not None and counters.endgame_plies >= group.plies:
        raise refuse(
            f"endgame_plies={counters.endgame_plies} reaches the limit of Art. {group.article} "
            f"({group.plies} plies): the game would already be drawn"
        )
    mover, to_move = position.turn.opponent, position.turn
    if counters.no_progress_plies >= 1 and not position.kings(mover):
        raise refuse(
            f"no_progress_plies={counters.no_progress_plies} says the last ply was a king move, "
            f"but {mover}, who played it, has no king (Art. 6.2)"
        )
    if counters.no_progress_plies >= 2 and not position.kings(to_move):
        raise refuse(
            f"no_progress_plies={counters.no_progress_plies} says the ply before the last was a "
            f"king move, but {to_move}, who played it, has no king (Art. 6.2)"
        )
    for switch, count in (
        ("repetitionDraw", counters.occurrences),
        ("kingsOnlyDraw", counters.no_progress_plies),
    ):
        if not rules.is_settled(switch) and count >= 2:
            raise refuse(
                f"{switch} is not settled by the sources of {rules.name!r} (null in its rules file): "
                "a count this high could already have decided the game"
            )
    if counters.occurrences >= 2 and counters.no_progress_plies < 4 * (counters.occurrences - 1):
        raise refuse(
            f"occurrences={counters.occurrences} needs at least {4 * (counters.occurrences - 1)} "
            "plies of king moves without capture since the first occurrence (a man move or a "
            f"capture cannot be undone), but no_progress_plies={counters.no_progress_plies}"
        )
    if group is not None and counters.no_progress_plies > counters.endgame_plies:
        raise refuse(
            f"no_progress_plies={counters.no_progress_plies} exceeds endgame_plies="
            f"{counters.endgame_plies}: the ending arose by a capture or a promotion, which "
            "reset the Art. 6.2 count"
        )
