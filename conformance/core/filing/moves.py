"""What a legal move relies on: the rules an engine must get right to find it and play it.

A man's step relies on Art. 3.4, a promoting step on 3.5; a king's slide of several squares on
3.9. A one-square king step relies on nothing a refusal would not tell: an engine whose kings do
not fly -- the classic 3.9 defect -- still plays it, and the king-step draw cases exist so that
such an engine's draw rules are judged; a refused step is charged to 3.9 anyway. A capture relies
on the capturing piece's rule (a man's 4.2, a king's 4.3) and on every rule its paths all need
(:mod:`conformance.core.filing.paths`): a man's backward jump 4.1, a man's multiple capture 4.5, a
king's 4.6, a man passing the far row 4.15, a man crowned at its end 3.5, an empty square crossed
twice 4.8, the start square passed or ended on (reading ``start-square-empty``); and on 4.13 when
the maximum rule decides among the side's captures (a shorter one was cut, or the largest ones
take different numbers of kings, which a king counted as more than one would split).

The moves come from the oracle's generator; it is used here to *classify* them, never to give an
expected answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from conformance.core.filing.paths import PathBudgetExceeded, needed_traits, paths_by_key
from conformance.core.move_rules import move_rule
from oracle.board import row_of
from oracle.moves import Move, all_captures, legal_moves
from oracle.position import Kind, Position

START_SQUARE_EMPTY: Final = "start-square-empty"
"""The reading of cases/articles.yaml that lets a capture pass or end on its start square."""

TRAIT_RULES: Final = {
    "slide": "4.3",
    "beyond": "4.3",
    "backward": "4.1",
    "far-row": "4.15",
    "crowning": "3.5",
    "recross": "4.8",
    "start": START_SQUARE_EMPTY,
    "restart": START_SQUARE_EMPTY,
    "loop": START_SQUARE_EMPTY,
}
"""The rule each path trait uses ("multi" is 4.5 for a man, 4.6 for a king)."""

SPECIFICITY: Final = (
    START_SQUARE_EMPTY,
    "4.8",
    "4.11",
    "4.15",
    "4.1",
    "4.3",
    "4.6",
    "4.5",
    "3.5",
    "4.13",
    "4.14",
    "4.2",
    "3.9",
    "3.4",
)
"""Of several rules one answer may break, the one it is filed under: the most specific first
(a route through the start square before the king's capture it is part of)."""


def most_specific(rules: Iterable[str]) -> str:
    """The first of ``rules`` in :data:`SPECIFICITY` (others after, by name)."""
    rank = {rule: index for index, rule in enumerate(SPECIFICITY)}
    return min(rules, key=lambda rule: (rank.get(rule, len(rank)), rule))


def is_king_move(position: Position, move: Move) -> bool:
    piece = position.piece_at(move.from_square)
    return piece is not None and piece.kind is Kind.KING


def trait_rules(traits: Iterable[str], *, king: bool) -> frozenset[str]:
    """The rules of a capture's traits (``multi``: 4.6 for a king, 4.5 for a man)."""
    rules = {TRAIT_RULES[t] for t in traits if t in TRAIT_RULES}
    if "multi" in traits:
        rules.add("4.6" if king else "4.5")
    return frozenset(rules)


def capture_traits(position: Position, move: Move) -> frozenset[str] | None:
    """The traits every path of the capture ``move`` has; None when the paths cannot be counted."""
    try:
        return needed_traits(paths_by_key(position).get(move.key, []))
    except PathBudgetExceeded:
        return None


def capture_rules(position: Position, move: Move) -> frozenset[str]:
    """The rules a capture relies on: its piece's rule and its paths' (see the module)."""
    king = is_king_move(position, move)
    traits = capture_traits(position, move)
    if traits is None:  # too many paths: the generator's own classification of the move
        from conformance.core.move_rules import move_rules

        return move_rules(position, move)
    return frozenset({"4.3" if king else "4.2"}) | trait_rules(traits, king=king)


def maximum_decides(position: Position) -> bool:
    """Whether Art. 4.13 decides among the side's captures: a complete capture was cut for
    taking fewer pieces, or the largest ones take different numbers of kings."""
    legal = [move for move in legal_moves(position) if move.is_capture]
    if not legal:
        return False
    if len(all_captures(position)) > len(legal):
        return True
    taken = {sum(_is_king_on(position, square) for square in move.captured) for move in legal}
    return len(taken) > 1


def _is_king_on(position: Position, square: int) -> bool:
    piece = position.piece_at(square)
    return piece is not None and piece.kind is Kind.KING


def relies_on(position: Position, move: Move) -> frozenset[str]:
    """Every rule the legal ``move`` relies on in ``position`` (see the module)."""
    if move.is_capture:
        rules = capture_rules(position, move)
        return rules | {"4.13"} if maximum_decides(position) else rules
    if is_king_move(position, move):
        long = abs(row_of(move.to_square) - row_of(move.from_square)) > 1
        return frozenset({"3.9"}) if long else frozenset()
    return frozenset({move_rule(position, move).article})


def move_words(position: Position, move: Move) -> str:
    """A legal move in a few words, with its most specific rule: ``king capture through its start
    square (reading start-square-empty)``, ``long king move (Art. 3.9)``."""
    rule = move_rule(position, move)
    specific = most_specific(relies_on(position, move) - {"4.13"} or {rule.article})
    where = f"reading {specific}" if specific == START_SQUARE_EMPTY else f"Art. {specific}"
    extra = ""
    if move.is_capture and specific != rule.article:
        extra = {
            START_SQUARE_EMPTY: " through its start square",
            "4.8": " crossing a square twice",
            "4.15": " passing the far row",
        }.get(specific, "")
    return f"{rule.kind}{extra} ({where})"
