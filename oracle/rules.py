"""The rules of international draughts as a small configuration (FMJD Annex 1).

International draughts is one setting, :data:`INTERNATIONAL`. Every switch here changes
what the oracle does; flipping one is how the project proves its corpus notices each rule.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final


class CaptureChoice(enum.Enum):
    """Which of the available captures the player may choose."""

    MAXIMUM = "maximum"
    """Art. 4.13: the capture taking the most pieces is compulsory (a king counts as one)."""
    FREE = "free"
    """Any complete capture may be chosen (capturing itself stays compulsory)."""


class MidCaptureCrowning(enum.Enum):
    """What happens to a man that reaches the far row during a capture and can go on."""

    PASSES = "passes"
    """Art. 4.15: it goes on capturing as a man, and is crowned only if it ends there."""
    CROWNS = "crowns"
    """It is crowned at once and goes on capturing as a king (Russian draughts)."""


@dataclasses.dataclass(frozen=True, order=True)
class Ending:
    """One material balance of Art. 6.3/6.4: the strong side's kings and men, against a lone king."""

    kings: int
    men: int

    def __str__(self) -> str:
        parts = [f"{self.kings}K" if self.kings else "", f"{self.men}M" if self.men else ""]
        return "+".join(part for part in parts if part) + " v K"


@dataclasses.dataclass(frozen=True)
class EndgameCount:
    """A group of endings that is drawn after a number of moves each (Art. 6.3, 6.4).

    ``restarts_on_change`` tells whether a man move, a promotion or a capture that keeps the
    game inside the group starts the count again. rules.md fixes the reading: it does not.
    """

    article: str
    endings: frozenset[Ending]
    moves_each: int
    restarts_on_change: bool = False

    @property
    def plies(self) -> int:
        return 2 * self.moves_each


@dataclasses.dataclass(frozen=True)
class Rules:
    """A rule configuration; :data:`INTERNATIONAL` is the FMJD game."""

    men_rows: int = 4
    """Rows of men each side starts with (Art. 2.4)."""
    men_capture_backward: bool = True
    """Art. 4.1: a man captures backward as well as forward."""
    flying_kings: bool = True
    """Art. 3.9, 4.3: a king moves and captures over any distance (else one square, like a man)."""
    capture_choice: CaptureChoice = CaptureChoice.MAXIMUM
    """Art. 4.13, 4.14."""
    mid_capture_crowning: MidCaptureCrowning = MidCaptureCrowning.PASSES
    """Art. 4.15."""
    repetition_draw: int | None = 3
    """Art. 6.1: the occurrence of a position that draws (None: no repetition rule)."""
    no_progress_moves: int | None = 25
    """Art. 6.2: moves each of only king moves without capture that draw (None: no rule)."""
    endgame_counts: tuple[EndgameCount, ...] = ()
    """Art. 6.3, 6.4: the groups of endings against a lone king and their move limits."""

    def __post_init__(self) -> None:
        if not 1 <= self.men_rows <= 4:
            raise ValueError(f"men_rows must be 1-4, not {self.men_rows}")
        if self.repetition_draw is not None and self.repetition_draw < 2:
            raise ValueError(
                f"Art. 6.1: repetition_draw must be 2 or more (or None), not {self.repetition_draw}"
            )
        if self.no_progress_moves is not None and self.no_progress_moves < 1:
            raise ValueError(
                f"Art. 6.2: no_progress_moves must be 1 or more (or None), not {self.no_progress_moves}"
            )
        seen: set[Ending] = set()
        for count in self.endgame_counts:
            if count.moves_each < 1:
                raise ValueError(f"Art. {count.article}: moves_each must be positive")
            if seen & count.endings:
                raise ValueError(f"Art. {count.article}: an ending belongs to two groups")
            seen |= count.endings

    def endgame_count_for(self, ending: Ending) -> EndgameCount | None:
        """The group of Art. 6.3/6.4 an ending belongs to, if any."""
        for count in self.endgame_counts:
            if ending in count.endings:
                return count
        return None


ARTICLE_6_3: Final = EndgameCount(
    article="6.3",
    endings=frozenset({Ending(3, 0), Ending(2, 1), Ending(1, 2)}),
    moves_each=16,
)
ARTICLE_6_4: Final = EndgameCount(
    article="6.4",
    endings=frozenset({Ending(2, 0), Ending(1, 1), Ending(1, 0)}),
    moves_each=5,
)

INTERNATIONAL: Final = Rules(endgame_counts=(ARTICLE_6_3, ARTICLE_6_4))
"""The FMJD rules of international draughts, as rules.md reads them."""
