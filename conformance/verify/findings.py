"""What a check says about an answer: a :class:`Finding` of a :class:`FindingKind`, filed under that
kind's articles, and how findings name a move (``32-28``, ``28x19 {23}``).

The vocabulary of the checks of :mod:`conformance.verify.checks`, :mod:`conformance.verify.after`
and the judges; a new kind of finding is one more member of :class:`FindingKind` (its articles and
its sentence are declared here).
"""

from __future__ import annotations

import dataclasses
import enum
import types
from collections.abc import Iterable, Mapping
from typing import Any, Final

MoveKey = tuple[int, int, frozenset[int]]
"""A move as the rules identify it: (from, to, set of captured squares) (rules.md, Art. 8)."""


class FindingKind(enum.Enum):
    """What a finding is about; :attr:`articles` are the FMJD articles it concerns."""

    MALFORMED = "malformed"
    """A move of the answer cannot be read (square outside 1-50, not a number...)."""
    DUPLICATE = "duplicate"
    """The same (from, to, captured) move is listed twice (rules.md: routes are not moves)."""
    SOUNDNESS = "soundness"
    """A listed capture cannot be played: no route has that start, end and captured set."""
    OPTIMALITY = "optimality"
    """A capture takes more pieces than the engine's, or a listed capture is not a maximum one."""
    COMPLETENESS = "completeness"
    """A maximum capture is missing from the answer."""
    COMPULSORY_CAPTURE = "compulsory-capture"
    """A capture exists but the answer offers a move that is not one."""
    QUIET_MOVES = "quiet-moves"
    """No capture exists and the answer's moves differ from the men's steps and the kings' slides."""
    CAPTURED_SQUARES = "captured-squares"
    """A move's captured squares repeat, or one of them holds no opposing piece."""
    PIECE_COUNT = "piece-count"
    """The pieces after a move are not the pieces before minus the captured ones."""
    PROMOTION_ROW = "promotion-row"
    """After a move a man stands on its own promotion row (it should have been crowned)."""
    PROMOTION = "promotion"
    """A man was crowned without ending on the far row, or ended there and was not crowned."""
    RESULT_POSITION = "result-position"
    """The position after a move is otherwise wrong (the piece, or the side to move)."""
    SYMMETRY = "symmetry"
    """The legal moves of the colour-flipped position are not the flipped legal moves."""
    OUTCOME = "outcome"
    """The result, deciding rule or ply of a game differs (only the differential checks give it)."""
    START_POSITION = "start-position"
    """A new game's position is not Art. 2.8's: Black's men on 1-20, White's on 31-50, White to move."""

    @property
    def articles(self) -> tuple[str, ...]:
        return _ARTICLES[self]

    def describe(self) -> str:
        """The defect in a few words, the same for every finding of this kind (reports group by it)."""
        return _DEFECTS[self]


_DEFECTS: Final[Mapping[FindingKind, str]] = types.MappingProxyType(
    {
        FindingKind.MALFORMED: "answers a move that cannot be read",
        FindingKind.DUPLICATE: "lists one move twice (several routes)",
        FindingKind.SOUNDNESS: "lists a capture no route makes",
        FindingKind.OPTIMALITY: "lists a capture below the maximum",
        FindingKind.COMPLETENESS: "misses a maximum capture",
        FindingKind.COMPULSORY_CAPTURE: "offers a move that is not a capture where one exists",
        FindingKind.QUIET_MOVES: "wrong moves without a capture",
        FindingKind.CAPTURED_SQUARES: "names captured squares wrongly",
        FindingKind.PIECE_COUNT: "wrong pieces after a capture",
        FindingKind.PROMOTION_ROW: "leaves a man on its promotion row",
        FindingKind.PROMOTION: "crowns wrongly",
        FindingKind.RESULT_POSITION: "wrong position after a move",
        FindingKind.SYMMETRY: "differs on the colour-flipped position",
        FindingKind.OUTCOME: "wrong game outcome",
        FindingKind.START_POSITION: "wrong start position",
    }
)

_ARTICLES: Final[Mapping[FindingKind, tuple[str, ...]]] = types.MappingProxyType(
    {
        FindingKind.MALFORMED: ("8",),
        FindingKind.DUPLICATE: ("8",),
        FindingKind.SOUNDNESS: ("4.1", "4.3", "4.5", "4.6", "4.8", "4.11", "4.15"),
        FindingKind.OPTIMALITY: ("4.13",),
        FindingKind.COMPLETENESS: ("4.13", "4.14"),
        FindingKind.COMPULSORY_CAPTURE: ("4.2",),
        FindingKind.QUIET_MOVES: ("3.4", "3.9"),
        FindingKind.CAPTURED_SQUARES: ("4.1", "4.3", "4.8"),
        FindingKind.PIECE_COUNT: ("4.11",),
        FindingKind.PROMOTION_ROW: ("3.5",),
        FindingKind.PROMOTION: ("3.5", "4.15"),
        FindingKind.RESULT_POSITION: ("3", "4"),
        FindingKind.SYMMETRY: ("2", "3", "4"),
        FindingKind.OUTCOME: ("6.1", "6.2", "6.3", "6.4", "7.2"),
        FindingKind.START_POSITION: ("2.8",),
    }
)


@dataclasses.dataclass(frozen=True)
class Finding:
    """One thing wrong with an engine's answer: its kind, a sentence, and the data behind it.

    ``detail`` holds plain JSON-able values (ints, strings, lists): the FEN, the move, the
    witness route, the expected and the given sets.
    """

    kind: FindingKind
    message: str
    detail: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)
    filed: tuple[str, ...] = dataclasses.field(default=(), hash=False, compare=False)
    """The rule(s) this one finding concerns, when narrower than its kind's (an outcome: one)."""

    @property
    def articles(self) -> tuple[str, ...]:
        return self.filed or self.kind.articles

    def __str__(self) -> str:
        return f"[{self.kind.value}, Art. {', '.join(self.articles)}] {self.message}"


def move_text(key: MoveKey) -> str:
    """``32-28`` or ``28x19 {23}``: the (from, to, captured) form used in findings."""
    from_square, to_square, captured = key
    if not captured:
        return f"{from_square}-{to_square}"
    return f"{from_square}x{to_square} {{{','.join(map(str, sorted(captured)))}}}"


def move_order(key: MoveKey) -> tuple[int, int, list[int]]:
    return (key[0], key[1], sorted(key[2]))


def move_texts(keys: Iterable[MoveKey]) -> list[str]:
    return [move_text(key) for key in sorted(keys, key=move_order)]
