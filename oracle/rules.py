"""A game of the draughts family as a small configuration of switches (FMJD Annex 1 and others).

International draughts is one setting, :data:`INTERNATIONAL`; Brazilian, Canadian, Russian, pool
and American draughts are others (the built-in rule sets of :mod:`oracle.ruleset`, each citing its
rulebook). Every switch here changes what the oracle does -- each is one named branch of the move
generator (:mod:`oracle.moves`) or of the game (:mod:`oracle.game`) -- and flipping one is how the
project proves its corpus notices each rule.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final

from oracle.board import INTERNATIONAL_SIZE, Geometry, geometry
from oracle.errors import RulesError


class CaptureChoice(enum.Enum):
    """Which of the available captures the player may choose."""

    MAXIMUM = "maximum"
    """Art. 4.13: the capture taking the most pieces is compulsory (a king counts as one)."""
    FREE = "free"
    """Any complete capture may be chosen (capturing itself stays compulsory, and a capture goes
    on while it can: rulesets/README.md, "Free choice and completion")."""


class MidCaptureCrowning(enum.Enum):
    """What happens to a man that reaches the far row during a capture."""

    PASSES = "passes"
    """Art. 4.15: it goes on capturing as a man if it can, and is crowned only if it ends there."""
    STOPS = "stops"
    """It is crowned and the move ends there (English/American checkers)."""
    CONTINUES = "continues"
    """It is crowned at once and goes on capturing as a king (Russian draughts)."""
    CROWNS = "continues"  # noqa: PIE796 -- an alias, on purpose
    """The name this switch had before rule sets were data: the same member as :attr:`CONTINUES`."""


class FirstMove(enum.Enum):
    """Which side makes the first move of a game (FMJD 2.8: White; American checkers: Black)."""

    WHITE = "white"
    BLACK = "black"


@dataclasses.dataclass(frozen=True)
class Articles:
    """The rulebook numbers an outcome names: FMJD's for international draughts; ``source:number``
    (``"fmjd64:7.2.5"``, ``"acf:1.32.2"``) for a rule set read from a file (:mod:`oracle.ruleset`)."""

    repetition: str = "6.1"
    kings_only: str = "6.2"
    no_pieces: str = "7.2.2"
    blocked: str = "7.2.3"


UNSETTLED_SWITCHES: Final = ("repetitionDraw", "kingsOnlyDraw", "endgameCounts")
"""The switches a rule set may leave unsettled (``null`` in a rules file: its sources, as read, do
not say). The game refuses to judge a position where such a rule could decide (:mod:`oracle.game`)."""


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
    ``article`` is the rulebook's own number (``"6.3"``; ``"7.2.4"`` in Russian draughts).
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
    """A rule set: the board and every switch of one game; :data:`INTERNATIONAL` is the FMJD game.

    Read one from a file or by name with :func:`oracle.ruleset.load_rules`. ``name``, ``title``
    and ``game_type`` describe the game and take no part in equality: two rule sets are equal
    when they play the same game.
    """

    men_rows: int = 4
    """Rows of men each side starts with (Art. 2.8)."""
    men_capture_backward: bool = True
    """Art. 4.1: a man captures backward as well as forward."""
    flying_kings: bool = True
    """Art. 3.9, 4.3: a king moves and captures over any distance (else one square, like a man)."""
    capture_choice: CaptureChoice = CaptureChoice.MAXIMUM
    """Art. 4.13, 4.14."""
    mid_capture_crowning: MidCaptureCrowning = MidCaptureCrowning.PASSES
    """Art. 4.15."""
    repetition_draw: int | None = 3
    """Art. 6.1: the occurrence of a position that draws (None: no repetition rule, or unsettled)."""
    no_progress_moves: int | None = 25
    """Art. 6.2: moves each of only king moves without capture that draw (None: no rule, or unsettled)."""
    endgame_counts: tuple[EndgameCount, ...] = ()
    """Art. 6.3, 6.4: the groups of endings against a lone king and their move limits."""
    board_size: int = INTERNATIONAL_SIZE
    """Art. 2.1: squares along a side of the square board (a rules file defaults it to 2 x men_rows + 2)."""
    first_move: FirstMove = FirstMove.WHITE
    """Art. 2.8: the side that moves first from the initial position."""
    unsettled: frozenset[str] = frozenset()
    """The draw switches (named as in a rules file, :data:`UNSETTLED_SWITCHES`) that the game's
    sources do not settle; their values here are None (or no endgame counts)."""
    name: str = dataclasses.field(default="custom", compare=False)
    """The rule set's name, as ``--rules`` takes it."""
    title: str = dataclasses.field(default="", compare=False)
    game_type: str | None = dataclasses.field(default=None, compare=False)
    """The PDN GameType tag (PDN 3.0), e.g. ``"20,W,10,10,N2,0"``."""
    articles: Articles = dataclasses.field(default=Articles(), compare=False)
    """The article numbers of the draw and loss rules, as an outcome names them."""
    geometry: Geometry = dataclasses.field(init=False, repr=False, compare=False)
    """The tables of the board (:mod:`oracle.board`), from ``board_size``."""
    algebraic: bool = dataclasses.field(init=False, repr=False, compare=False)
    """Whether the game's PDN GameType writes squares algebraically (``c3``: Russian, Brazilian)."""
    _hash: int = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            board = geometry(self.board_size)
        except ValueError as error:
            raise RulesError(f"board_size: {error}") from None
        object.__setattr__(self, "geometry", board)
        notation = (self.game_type or "").split(",")[4:5]
        object.__setattr__(self, "algebraic", notation[0].startswith("A") if notation else False)
        most_rows = (self.board_size - 2) // 2  # at least two empty rows between the armies
        if isinstance(self.men_rows, bool) or not isinstance(self.men_rows, int):
            raise RulesError(f"men_rows must be a whole number, not {self.men_rows!r}")
        if not 1 <= self.men_rows <= most_rows:
            raise RulesError(
                f"men_rows must be 1-{most_rows} on a {self.board_size}x{self.board_size} board "
                f"(two rows at least between the armies), not {self.men_rows}"
            )
        if self.repetition_draw is not None and self.repetition_draw < 2:
            raise RulesError(
                f"Art. 6.1: repetition_draw must be 2 or more (or None), not {self.repetition_draw}"
            )
        if self.no_progress_moves is not None and self.no_progress_moves < 1:
            raise RulesError(
                f"Art. 6.2: no_progress_moves must be 1 or more (or None), not {self.no_progress_moves}"
            )
        unknown = sorted(self.unsettled - set(UNSETTLED_SWITCHES))
        if unknown:
            raise RulesError(
                f"unsettled: {', '.join(unknown)} cannot be left unsettled "
                f"(only {', '.join(UNSETTLED_SWITCHES)})"
            )
        values = {
            "repetitionDraw": self.repetition_draw,
            "kingsOnlyDraw": self.no_progress_moves,
            "endgameCounts": self.endgame_counts or None,
        }
        for switch in sorted(self.unsettled):
            if values[switch] is not None:
                raise RulesError(f"unsettled: {switch} is unsettled but has a value ({values[switch]!r})")
        seen: set[Ending] = set()
        for count in self.endgame_counts:
            if count.moves_each < 1:
                raise RulesError(f"Art. {count.article}: moves_each must be positive")
            if seen & count.endings:
                raise RulesError(f"Art. {count.article}: an ending belongs to two groups")
            seen |= count.endings
        played = tuple(getattr(self, field.name) for field in dataclasses.fields(self) if field.compare)
        object.__setattr__(self, "_hash", hash(played))

    def __hash__(self) -> int:
        """The hash of the game played, computed once: rule sets key the move generators' caches."""
        return self._hash

    def __reduce__(self) -> tuple[object, tuple[dict[str, object]]]:
        # Rebuilt from its fields in another process, where strings (and so the hash) hash otherwise.
        given = {field.name: getattr(self, field.name) for field in dataclasses.fields(self) if field.init}
        return (_rules_of, (given,))

    @property
    def white_moves_first(self) -> bool:
        return self.first_move is FirstMove.WHITE

    def is_settled(self, switch: str) -> bool:
        """Whether the game's sources settle a draw switch (see :attr:`unsettled`)."""
        return switch not in self.unsettled

    def endgame_count_for(self, ending: Ending) -> EndgameCount | None:
        """The group of Art. 6.3/6.4 an ending belongs to, if any."""
        for count in self.endgame_counts:
            if ending in count.endings:
                return count
        return None


def _rules_of(fields: dict[str, object]) -> Rules:
    return Rules(**fields)  # type: ignore[arg-type]


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

INTERNATIONAL: Final = Rules(
    endgame_counts=(ARTICLE_6_3, ARTICLE_6_4),
    name="international",
    title="International draughts (10x10)",
    game_type="20,W,10,10,N2,0",
)
"""The FMJD rules of international draughts, as rules.md reads them."""
