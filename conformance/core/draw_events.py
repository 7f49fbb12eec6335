"""Art. 6 and 7.2 over abstract move events: the draw bookkeeping read in plain Python.

This is the first half of the verifier's own model of the draw rules (the second is the z3
encoding of :mod:`conformance.verify.draw_smt`). It is written from rules.md and the readings of
``cases/articles.yaml``, independently of the oracle: it imports nothing from :mod:`oracle`. A game
is abstracted into a :class:`Start` and one :class:`Event` per ply:

* the kind of move (:class:`MoveKind`): a king move without capture, a man move, a promotion (a
  man move that crowns, Art. 3.5), or a capture (Art. 4), by a man (``by_man``: a man move as
  well) or by a king;
* the material after it (:class:`Material`: kings and men per side), from which the group of
  6.3 (3K, 2K+1M, 1K+2M v K) or 6.4 (2K, 1K+1M, 1K v K) follows, and which side is strong;
* which placement the board has after it (an abstract id: equal ids, equal squares), for 6.1;
* whether the side to move then has pieces but no legal move (7.2.3), and whether the lone king
  solely occupies the long diagonal 46-5 (for the 2024 clause of 6.3, which the project does not
  apply: the reading ``long-diagonal-not-applied``).

Facts of the game that the abstraction keeps (checked by :class:`DrawBook`, assumed by the z3
model): a man move, a promotion or a capture can never be undone, so no placement seen before
one can recur; each side needs two moves to bring its pieces back, so a placement recurs at
least four plies later; whether the side to move is blocked depends on placement and turn only.

The rules the bookkeeping follows, and the material and moves it is made of, are
:mod:`conformance.core.draw_rules`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from conformance.core.draw_rules import (
    BLOCKED,
    DRAW_ARTICLES,
    GROUP_6_3,
    GROUP_6_4,
    MAX_PIECES,
    NO_PIECES,
    NO_PROGRESS,
    PROJECT,
    READING_ARTICLES,
    REPETITION,
    DrawRules,
    Ending,
    EventError,
    Group,
    Material,
    MoveKind,
    Side,
    article_order,
)

__all__ = [
    "BLOCKED",
    "DRAW_ARTICLES",
    "GROUP_6_3",
    "GROUP_6_4",
    "MAX_PIECES",
    "NO_PIECES",
    "NO_PROGRESS",
    "ONGOING",
    "PROJECT",
    "READING_ARTICLES",
    "REPETITION",
    "DrawBook",
    "DrawOutcome",
    "DrawRules",
    "Ending",
    "Event",
    "EventError",
    "Group",
    "Material",
    "MoveKind",
    "Side",
    "Start",
    "article_order",
    "outcomes",
]


@dataclasses.dataclass(frozen=True)
class Event:
    """One ply: the kind of move and what holds after it (see the module docstring)."""

    kind: MoveKind
    material: Material
    placement: int
    blocked: bool = False
    long_diagonal: bool = False
    by_man: bool = False
    """A capture made by a man (a man move as well, for 6.2)."""


@dataclasses.dataclass(frozen=True)
class Start:
    """The setup position in the abstract, with the Art. 6 counters of a game set up there."""

    material: Material
    turn: Side = Side.WHITE
    placement: int = 0
    blocked: bool = False
    long_diagonal: bool = False
    occurrences: int = 1
    no_progress_plies: int = 0
    endgame_plies: int = 0

    def __post_init__(self) -> None:
        if self.occurrences < 1:
            raise EventError(f"occurrences must be 1 or more, not {self.occurrences}")
        if self.no_progress_plies < 0 or self.endgame_plies < 0:
            raise EventError("the no-progress and endgame counts must be 0 or more")

    @property
    def default_counters(self) -> bool:
        return (self.occurrences, self.no_progress_plies, self.endgame_plies) == (1, 0, 0)


@dataclasses.dataclass(frozen=True)
class DrawOutcome:
    """Result (``ongoing``, ``white_wins``, ``black_wins``, ``draw``), rule and ply, as the corpus
    writes outcomes."""

    result: str
    rule: str | None = None
    ply: int | None = None

    @property
    def is_over(self) -> bool:
        return self.result != "ongoing"

    def to_json(self) -> dict[str, str | int | None]:
        return {"result": self.result, "rule": self.rule, "ply": self.ply}

    def __str__(self) -> str:
        return "ongoing" if not self.is_over else f"{self.result} ({self.rule}) at ply {self.ply}"


ONGOING: Final = DrawOutcome("ongoing")


@dataclasses.dataclass
class _Seen:
    """A placement seen before: its last ply, its material and attributes."""

    ply: int
    material: Material
    long_diagonal: bool
    blocked: dict[Side, bool]


class DrawBook:
    """The Art. 6 counters of a game, kept over abstract events: :meth:`play` one per ply.

    ``occurrences``, ``no_progress_plies``, ``group`` with ``endgame_plies`` and ``outcome``
    follow rules.md under ``rules``; an event no game can produce raises :class:`EventError`.
    """

    def __init__(self, start: Start, rules: DrawRules = PROJECT) -> None:
        self.rules: Final = rules
        self.ply = 0
        self.turn = start.turn
        self.material = start.material
        self._seen: dict[int, _Seen] = {}
        self._counts: dict[tuple[int, Side | None], int] = {}
        self._last_irreversible = 0
        self._remember(start.placement, start.blocked, start.long_diagonal)
        self._counts[self._key(start.placement)] = start.occurrences
        self.no_progress_plies = start.no_progress_plies
        self.group = rules.group_of(start.material)
        self.endgame_plies = start.endgame_plies if self.group is not None else 0
        self._before: tuple[Group | None, int] = (None, 0)
        """The group and its count before the last move (for ``draws_before_win``)."""
        self.lingering: dict[str, int] = {}
        """Counts of groups the game has left that still apply (``Group.ends_on_exit`` off)."""
        self._linger()
        self.outcome = self._judge(start.blocked, start.long_diagonal)

    @property
    def occurrences(self) -> int:
        return self._counts[self._key(self._placement)]

    def _key(self, placement: int) -> tuple[int, Side | None]:
        return (placement, self.turn if self.rules.repetition_has_turn else None)

    def _remember(self, placement: int, blocked: bool, long_diagonal: bool) -> None:
        self._placement = placement
        seen = self._seen.get(placement)
        if seen is None:
            self._seen[placement] = _Seen(self.ply, self.material, long_diagonal, {self.turn: blocked})
            return
        where = f"ply {self.ply}: placement {placement} (last seen at ply {seen.ply})"
        if self._last_irreversible > seen.ply:
            raise EventError(
                f"{where} recurs after a man move, promotion or capture at ply {self._last_irreversible}"
            )
        if self.ply - seen.ply < 4:
            raise EventError(f"{where} recurs within 4 plies: each side needs two moves to come back")
        if seen.material != self.material or seen.long_diagonal != long_diagonal:
            raise EventError(f"{where} recurs with other material or another long-diagonal attribute")
        if seen.blocked.setdefault(self.turn, blocked) != blocked:
            raise EventError(f"{where} recurs with the same side to move, blocked once and not once")
        seen.ply = self.ply

    def play(self, event: Event) -> DrawOutcome:
        """Play one ply and return the outcome after it."""
        if self.outcome.is_over:
            raise EventError(f"ply {self.ply + 1}: the game is already over ({self.outcome})")
        self._check_move(event)
        rules, before = self.rules, self.group
        self._before = (self.group, self.endgame_plies)
        self.ply += 1
        self.turn = self.turn.opponent
        self.material = event.material
        if event.kind.irreversible:
            self._last_irreversible = self.ply
        self._remember(event.placement, event.blocked, event.long_diagonal)
        key = self._key(event.placement)
        self._counts[key] = self._counts.get(key, 0) + 1
        self.no_progress_plies = (
            0 if rules.resets_no_progress(event.kind, event.by_man) else self.no_progress_plies + 1
        )
        self.group = rules.group_of(event.material)
        entered = self.group != before and (
            before is None or self.group is None or self.group.fresh_count_on_entry
        )
        if self.group is None or entered or (self.group.restarts_on_change and event.kind.irreversible):
            self.endgame_plies = 0
        else:
            self.endgame_plies += 1
        self.lingering = {a: n + 1 for a, n in self.lingering.items()} if self.group is not None else {}
        self._linger()
        self.outcome = self._judge(event.blocked, event.long_diagonal)
        return self.outcome

    def _linger(self) -> None:
        """A group whose count outlives it (``ends_on_exit`` off) counts on from the current one's."""
        if self.group is not None and not self.group.ends_on_exit:
            self.lingering[self.group.article] = self.endgame_plies

    def _ran_out_with_the_move(self) -> list[str]:
        """The group whose count the last move brought to its limit, counted as if the game were
        still in it (what an engine checking the count before the move's result sees: a capture
        of the last piece ends the ending, which the project's reading looks at first)."""
        group, plies = self._before
        if group is None or plies + 1 < self.rules.group_limit(group):
            return []
        return [group.article]

    def _check_move(self, event: Event) -> None:
        mover, other = self.turn, self.turn.opponent
        old, new = self.material, event.material
        where = f"ply {self.ply + 1} ({event.kind.value} by {mover.value}, {old} -> {new})"
        crowned = (new.kings(mover), new.men(mover)) == (old.kings(mover) + 1, old.men(mover) - 1)
        same_mover = (new.kings(mover), new.men(mover)) == (old.kings(mover), old.men(mover))
        same_other = (new.kings(other), new.men(other)) == (old.kings(other), old.men(other))
        if event.kind is MoveKind.KING_MOVE:
            ok, why = old.kings(mover) > 0 and new == old, "needs a king and keeps the material"
        elif event.kind is MoveKind.MAN_MOVE:
            ok, why = old.men(mover) > 0 and new == old, "needs a man and keeps the material"
        elif event.kind is MoveKind.PROMOTION:
            ok, why = old.men(mover) > 0 and crowned and same_other, "turns one man into a king"
        else:
            took = new.kings(other) <= old.kings(other) and new.men(other) <= old.men(other)
            ok = took and new.pieces(other) < old.pieces(other) and old.pieces(mover) > 0
            ok = ok and (same_mover or (crowned and event.by_man))
            ok = ok and (old.men(mover) > 0 or not event.by_man)
            why = "takes at least one piece and may crown the capturing man"
        if event.by_man and event.kind is not MoveKind.CAPTURE:
            ok, why = False, "is no capture: only a capture is made 'by a man'"
        if not ok:
            raise EventError(f"{where}: a {event.kind.value} {why}")
        if event.blocked and not new.pieces(other):
            raise EventError(f"{where}: a side without pieces is not 'blocked' (it has no piece: 7.2.2)")

    def _judge(self, blocked: bool, long_diagonal: bool) -> DrawOutcome:
        rules, to_move = self.rules, self.turn
        loss = NO_PIECES if not self.material.pieces(to_move) else BLOCKED if blocked else None
        draws = []
        if rules.repetition_draw is not None and self.occurrences >= rules.repetition_draw:
            draws.append(REPETITION)
        limit = rules.no_progress_limit
        if limit is not None and self.no_progress_plies >= limit:
            draws.append(NO_PROGRESS)
        if self.group is not None and self.endgame_plies >= rules.group_limit(self.group, long_diagonal):
            draws.append(self.group.article)
        for article, plies in self.lingering.items():
            left = self.group is not None and article != self.group.article
            if left and plies >= rules.group_limit(rules.group_named(article)):
                draws.append(article)
        if loss is not None:
            before = [
                a for a in self._ran_out_with_the_move() if a in rules.draws_before_win and a not in draws
            ]
            draws += before
            if not rules.draws_before_win & set(draws):
                return DrawOutcome(f"{to_move.opponent.value}_wins", loss, self.ply)
        if draws:
            return DrawOutcome("draw", rules.first(draws), self.ply)
        return ONGOING


def outcomes(start: Start, events: Sequence[Event], rules: DrawRules = PROJECT) -> list[DrawOutcome]:
    """The outcome at every ply, the setup (ply 0) first; an event after the end raises :class:`EventError`."""
    book = DrawBook(start, rules)
    found = [book.outcome]
    for event in events:
        found.append(book.play(event))
    return found
