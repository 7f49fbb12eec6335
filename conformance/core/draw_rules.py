"""The draw rules of Art. 6 and 7.2 as parameters, for the bookkeeping of
:mod:`conformance.core.draw_events`: the sides, the kinds of move and the material an abstract game
is made of (:class:`Side`, :class:`MoveKind`, :class:`Material`, the endgame :class:`Group`), and
the rules themselves.

:class:`DrawRules` is parameterised like :class:`oracle.rules.Rules` for Art. 6
(``repetition_draw``, ``no_progress_moves``, groups with ``moves_each``, endings and
``restarts_on_change``), plus the readings that are no switch there; each field's docstring names
the reading of ``cases/articles.yaml`` it flips, the readings of 6.3/6.4 per group so that each can
be read the other way on one article only (:meth:`DrawRules.read_otherwise`, :data:`READING_ARTICLES`).
:data:`PROJECT` is the project's reading.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from typing import Final

from conformance.core.errors import CaseError

REPETITION: Final = "6.1"
NO_PROGRESS: Final = "6.2"
NO_PIECES: Final = "7.2.2"
BLOCKED: Final = "7.2.3"

MAX_PIECES: Final = 20
"""Pieces a side may have (Art. 2; rules.md)."""


class EventError(CaseError, ValueError):
    """An event sequence that no game can produce (named by its ply and why)."""


class Side(enum.Enum):
    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class MoveKind(enum.Enum):
    """What a ply does, as far as Art. 6 cares."""

    KING_MOVE = "king move"
    """A king moves without capturing (3.9): the only reversible kind of move."""
    MAN_MOVE = "man move"
    """A man steps forward and is not crowned (3.4)."""
    PROMOTION = "promotion"
    """A man steps onto the far row and is crowned (3.5): a man move."""
    CAPTURE = "capture"
    """A capture by a man or a king (Art. 4); a man ending on the far row is crowned."""

    @property
    def irreversible(self) -> bool:
        return self is not MoveKind.KING_MOVE


@dataclasses.dataclass(frozen=True, order=True)
class Material:
    """Kings and men of each side."""

    white_kings: int
    white_men: int
    black_kings: int
    black_men: int

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise EventError(f"material {field.name} must be a whole number >= 0, not {value!r}")
        for side in Side:
            if self.pieces(side) > MAX_PIECES:
                raise EventError(f"{side.value} has {self.pieces(side)} pieces, more than {MAX_PIECES}")

    def kings(self, side: Side) -> int:
        return self.white_kings if side is Side.WHITE else self.black_kings

    def men(self, side: Side) -> int:
        return self.white_men if side is Side.WHITE else self.black_men

    def pieces(self, side: Side) -> int:
        return self.kings(side) + self.men(side)

    def __str__(self) -> str:
        def one(side: Side) -> str:
            return f"{self.kings(side)}K+{self.men(side)}M"

        return f"W {one(Side.WHITE)} v B {one(Side.BLACK)}"


@dataclasses.dataclass(frozen=True, order=True)
class Ending:
    """The strong side's kings and men in an ending of 6.3/6.4 (the other side: one piece)."""

    kings: int
    men: int


@dataclasses.dataclass(frozen=True)
class Group:
    """A group of endings drawn after ``moves_each`` moves each (Art. 6.3, 6.4), with the project's
    readings of it as fields (``cases/articles.yaml``); each field read the other way is that
    reading broken on this group's article only."""

    article: str
    endings: frozenset[Ending]
    moves_each: int
    restarts_on_change: bool = False
    """Reading ``endgame-no-restart`` read the other way: a man move, a promotion or a capture
    inside the group starts the count again (the project: it does not)."""
    lone_king_only: bool = True
    """Reading ``endgame-lone-king-only`` (False: a lone man is a weak side of this group too)."""
    fresh_count_on_entry: bool = True
    """Reading ``endgame-group-change``, this group entered from another: its count starts at the
    capture that entered it (False: the other group's count carries on into it)."""
    ends_on_exit: bool = True
    """Reading ``endgame-group-change``, this group left for another: its count no longer applies
    (False: it still runs while the game stays in endings, and draws after this group's moves
    counted from when it arose, whichever group the game is in then)."""

    @property
    def plies(self) -> int:
        return 2 * self.moves_each


GROUP_6_3: Final = Group("6.3", frozenset({Ending(3, 0), Ending(2, 1), Ending(1, 2)}), 16)
GROUP_6_4: Final = Group("6.4", frozenset({Ending(2, 0), Ending(1, 1), Ending(1, 0)}), 5)

DRAW_ARTICLES: Final = (REPETITION, NO_PROGRESS, "6.3", "6.4")
"""The draw rules of Art. 6, lowest first: the project's precedence (reading ``draw-precedence``)."""


def article_order(article: str) -> tuple[int, ...]:
    """Articles in numeric order: 6.1 < 6.2 < 6.3 < 6.4 < 7.2.2."""
    return tuple(int(part) for part in article.split("."))


@dataclasses.dataclass(frozen=True)
class DrawRules:
    """Art. 6 and the game end of 7.2, with every reading the project fixes as a field."""

    repetition_draw: int | None = 3
    """6.1: the occurrence of a position that draws (None: no repetition rule)."""
    no_progress_moves: int | None = 25
    """6.2: moves each of king moves without capture that draw (None: no rule)."""
    groups: tuple[Group, ...] = (GROUP_6_3, GROUP_6_4)
    """6.3, 6.4: the groups of endings against a lone king, each with its readings."""
    repetition_has_turn: bool = True
    """6.1: the side to move is part of the position (False: placement only)."""
    man_move_resets: bool = True
    """6.2: a man move (a promotion too) resets the count."""
    capture_resets: bool = True
    """6.2: a capture resets the count."""
    long_diagonal_moves: int | None = None
    """Reading ``long-diagonal-not-applied`` (None). When set, the 2024 clause read one way: the
    6.3 group is drawn after this many moves each if at that ply the lone king solely occupies
    the long diagonal 46-5."""
    draws_before_win: frozenset[str] = frozenset()
    """Reading ``win-beats-draw`` read the other way for these draw articles: their draw expiring
    on the ply of a win is preferred to the win (the project: none) -- for 6.3/6.4, also when the
    winning move is a capture that ends the ending, the count run to its limit by that move (the
    count checked before the move's result, as an engine getting the order wrong does)."""
    precedence: tuple[str, ...] = DRAW_ARTICLES
    """Reading ``draw-precedence``: of draw rules expiring on one ply, the first in this order is
    reported (the project: the lowest article)."""
    limit_offsets: tuple[tuple[str, int], ...] = ()
    """Plies added to the limit of an article (6.2-6.4): the off-by-one bugs of the mutant gallery."""

    def __post_init__(self) -> None:
        if self.repetition_draw is not None and self.repetition_draw < 2:
            raise ValueError(f"repetition_draw must be 2 or more (or None), not {self.repetition_draw}")
        if self.no_progress_moves is not None and self.no_progress_moves < 1:
            raise ValueError(f"no_progress_moves must be 1 or more (or None), not {self.no_progress_moves}")
        seen: set[Ending] = set()
        for group in self.groups:
            if group.moves_each < 1:
                raise ValueError(f"Art. {group.article}: moves_each must be 1 or more")
            if seen & group.endings:
                raise ValueError(f"Art. {group.article}: an ending belongs to two groups")
            seen |= group.endings
        if sorted(self.precedence) != sorted(DRAW_ARTICLES):
            raise ValueError(f"precedence must order {', '.join(DRAW_ARTICLES)}, not {self.precedence}")

    def offset(self, article: str) -> int:
        return dict(self.limit_offsets).get(article, 0)

    @property
    def no_progress_limit(self) -> int | None:
        """6.2 in plies (None: no rule)."""
        if self.no_progress_moves is None:
            return None
        return 2 * self.no_progress_moves + self.offset(NO_PROGRESS)

    def group_limit(self, group: Group, long_diagonal: bool = False) -> int:
        """The plies after which ``group`` is drawn (with the 2024 clause, if applied)."""
        limit = group.plies + self.offset(group.article)
        if long_diagonal and self.long_diagonal_moves is not None and group.article == "6.3":
            return min(limit, 2 * self.long_diagonal_moves)
        return limit

    def group_named(self, article: str) -> Group:
        return next(group for group in self.groups if group.article == article)

    def with_group(self, article: str, **changes: object) -> DrawRules:
        """These rules with the fields ``changes`` of the group of ``article`` replaced."""
        groups = tuple(
            dataclasses.replace(g, **changes) if g.article == article else g  # type: ignore[arg-type]
            for g in self.groups
        )
        return dataclasses.replace(self, groups=groups)

    def group_of(self, material: Material) -> Group | None:
        """6.3/6.4: the group of the material's ending: the other side is one king (one piece, if
        the group is not ``lone_king_only``) and the strong side's kings and men are one of the
        group's endings; None when it is no ending of a group."""
        for group in self.groups:
            for strong in Side:
                weak = strong.opponent
                lone = material.pieces(weak) == 1 and (material.kings(weak) == 1 or not group.lone_king_only)
                if lone and Ending(material.kings(strong), material.men(strong)) in group.endings:
                    return group
        return None

    def resets_no_progress(self, kind: MoveKind, by_man: bool = False) -> bool:
        """6.2: whether a move restarts the count (a capture by a man is a man move too)."""
        if kind is MoveKind.CAPTURE:
            return self.capture_resets or (by_man and self.man_move_resets)
        return kind is not MoveKind.KING_MOVE and self.man_move_resets

    def first(self, articles: Iterable[str]) -> str:
        """Of draw rules expiring together, the one reported (reading ``draw-precedence``)."""
        return min(articles, key=self.precedence.index)

    def read_otherwise(self, reading: str, article: str) -> DrawRules:
        """These rules with ``reading`` (of ``cases/articles.yaml``) read the other way on ``article``
        only -- what an engine breaking that reading on that article does (see :data:`READINGS`)."""
        if (reading, article) not in READING_ARTICLES:
            known = ", ".join(f"{r}@{a}" for r, a in READING_ARTICLES)
            raise KeyError(f"no reading {reading}@{article} in the model; known: {known}")
        if reading == "endgame-no-restart":
            return self.with_group(article, restarts_on_change=True)
        if reading == "endgame-lone-king-only":
            return self.with_group(article, lone_king_only=False)
        if reading == "endgame-group-change":
            if article == "6.3":  # 6.3 is the group left: its count still applies
                return self.with_group(article, ends_on_exit=False)
            return self.with_group(article, fresh_count_on_entry=False)  # 6.4 entered: count carried
        if reading == "long-diagonal-not-applied":
            return dataclasses.replace(
                self, long_diagonal_moves=max(1, self.group_named("6.3").moves_each // 3)
            )
        if reading == "win-beats-draw":  # 7.2, the win's article: every draw comes first
            return dataclasses.replace(
                self, draws_before_win=frozenset(DRAW_ARTICLES if article == "7.2" else (article,))
            )
        # draw-precedence: 6.1, the lowest, comes last; any other article comes first
        others = tuple(a for a in self.precedence if a != article)
        return dataclasses.replace(
            self, precedence=(*others, article) if article == REPETITION else (article, *others)
        )


READING_ARTICLES: Final = tuple(
    (reading, article)
    for reading, articles in (
        ("endgame-no-restart", ("6.3", "6.4")),
        ("endgame-group-change", ("6.3", "6.4")),
        ("endgame-lone-king-only", ("6.3", "6.4")),
        ("long-diagonal-not-applied", ("6.3",)),
        ("win-beats-draw", ("7.2", "6.2", "6.3", "6.4")),
        ("draw-precedence", (REPETITION, NO_PROGRESS, "6.3", "6.4")),
    )
    for article in articles
)
"""Every (reading, article) of ``cases/articles.yaml`` about Art. 6 and 7.2 that
:meth:`DrawRules.read_otherwise` can flip (a test checks the list against that file).

What a reading broken on one article means: ``endgame-no-restart`` -- that group's count restarts
on a man move, promotion or capture inside it; ``endgame-lone-king-only`` -- that group's count
applies against a lone man too; ``endgame-group-change`` on 6.3 -- 6.3's count still applies after
a capture takes the game into 6.4, on 6.4 -- 6.4's count carries 6.3's on; ``long-diagonal-not-
applied`` -- the 2024 clause applied (6.3's count cut to a third with the lone king on 46-5);
``win-beats-draw`` on 6.2-6.4 -- that draw beats a win on its ply, on 7.2 (the win's article)
every draw does; ``draw-precedence`` on 6.1 -- a repetition is named after any other draw rule
expiring with it, on 6.2-6.4 -- that article is named before 6.1 (only 6.1 can expire with
another: a count of 6.2 starts again whenever an ending of 6.3/6.4 arises, and those counts
are shorter)."""


PROJECT: Final = DrawRules()
"""The rules as rules.md reads them: FMJD Art. 6 with every reading the project fixes."""
