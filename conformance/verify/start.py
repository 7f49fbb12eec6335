"""A new game's position (Art. 2.8), written from the words of the article, not the oracle's.

"The game starts with Black's 20 men on squares 1-20 and White's 20 men on 31-50, White to move."
:func:`check_start` compares an engine's start position with that sentence, square by square. Another
game of the family says the same with its own words: ``menRows`` rows of men a side on its board,
``firstMove`` to move (:func:`start_of`).
"""

from __future__ import annotations

from typing import Final

from conformance.verify.after import Placement, PlacementError, piece_words, read_placement
from conformance.verify.findings import Finding, FindingKind
from oracle.position import Color, Kind
from oracle.rules import INTERNATIONAL, FirstMove, Rules

START_FEN: Final = "W:W31-50:B1-20"
"""Art. 2.8 as a PDN FEN, for reports."""

START: Final[Placement] = {
    **dict.fromkeys(range(1, 21), (Color.BLACK, Kind.MAN)),
    **dict.fromkeys(range(31, 51), (Color.WHITE, Kind.MAN)),
}
"""Art. 2.8's pieces: Black's men on 1-20, White's on 31-50 (White moves first)."""


def start_of(rules: Rules) -> tuple[str, Color, Placement]:
    """A game's start as its rules file words it: Black's men on the first ``menRows`` rows
    (squares 1..), White's on the last, ``firstMove`` to move; as a FEN, the side and the pieces."""
    if rules == INTERNATIONAL:
        return START_FEN, Color.WHITE, START
    per_row, squares = rules.geometry.per_row, rules.geometry.square_count
    men = rules.men_rows * per_row
    first = Color.WHITE if rules.first_move is FirstMove.WHITE else Color.BLACK
    placement: Placement = {
        **dict.fromkeys(range(1, men + 1), (Color.BLACK, Kind.MAN)),
        **dict.fromkeys(range(squares - men + 1, squares + 1), (Color.WHITE, Kind.MAN)),
    }
    return f"{first.value}:W{squares - men + 1}-{squares}:B1-{men}", first, placement


def check_start(fen: str, rules: Rules = INTERNATIONAL) -> list[Finding]:
    """What is wrong with ``fen`` as the start position of a game (none: it is Art. 2.8's, or the
    rule set's).

    Raises :class:`~conformance.verify.after.PlacementError` when ``fen`` is not a FEN at all.
    """
    expected_fen, first, start = start_of(rules)
    squares = rules.geometry.square_count
    turn, placement = read_placement(fen, squares)
    wrong = [
        (square, f"{piece_words(placement, square)} instead of {piece_words(start, square)}")
        for square in range(1, squares + 1)
        if placement.get(square) != start.get(square)
    ]
    parts = [f"{_squares(squares)}: {what}" for squares, what in _runs(wrong)]
    if turn is not first:
        parts.append(f"{turn} to move instead of {first}")
    if not parts:
        return []
    whose = "Art. 2.8's" if rules == INTERNATIONAL else f"{rules.name}'s"
    return [
        Finding(
            FindingKind.START_POSITION,
            f"the start position differs from {whose}: {'; '.join(parts)}",
            {"fen": fen, "expected": expected_fen},
        )
    ]


def _runs(wrong: list[tuple[int, str]]) -> list[tuple[list[int], str]]:
    """Consecutive squares that are wrong the same way, grouped (16-20: empty instead of ...)."""
    runs: list[tuple[list[int], str]] = []
    for square, what in wrong:
        if runs and runs[-1][1] == what and runs[-1][0][-1] == square - 1:
            runs[-1][0].append(square)
        else:
            runs.append(([square], what))
    return runs


def _squares(squares: list[int]) -> str:
    return str(squares[0]) if len(squares) == 1 else f"{squares[0]}-{squares[-1]}"


__all__ = ["START", "START_FEN", "PlacementError", "check_start", "start_of"]
