"""A new game's position (Art. 2.8), written from the words of the article, not the oracle's.

"The game starts with Black's 20 men on squares 1-20 and White's 20 men on 31-50, White to move."
:func:`check_start` compares an engine's start position with that sentence, square by square.
"""

from __future__ import annotations

from typing import Final

from conformance.verify.after import Placement, PlacementError, piece_words, read_placement
from conformance.verify.checks import Finding, FindingKind
from oracle.position import Color, Kind

START_FEN: Final = "W:W31-50:B1-20"
"""Art. 2.8 as a PDN FEN, for reports."""

START: Final[Placement] = {
    **dict.fromkeys(range(1, 21), (Color.BLACK, Kind.MAN)),
    **dict.fromkeys(range(31, 51), (Color.WHITE, Kind.MAN)),
}
"""Art. 2.8's pieces: Black's men on 1-20, White's on 31-50 (White moves first)."""


def check_start(fen: str) -> list[Finding]:
    """What is wrong with ``fen`` as the start position of a game (none: it is Art. 2.8's).

    Raises :class:`~conformance.verify.after.PlacementError` when ``fen`` is not a FEN at all.
    """
    turn, placement = read_placement(fen)
    wrong = [
        (square, f"{piece_words(placement, square)} instead of {piece_words(START, square)}")
        for square in range(1, 51)
        if placement.get(square) != START.get(square)
    ]
    parts = [f"{_squares(squares)}: {what}" for squares, what in _runs(wrong)]
    if turn is not Color.WHITE:
        parts.append(f"{turn} to move instead of white")
    if not parts:
        return []
    return [
        Finding(
            FindingKind.START_POSITION,
            f"the start position differs from Art. 2.8's: {'; '.join(parts)}",
            {"fen": fen, "expected": START_FEN},
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


__all__ = ["START", "START_FEN", "PlacementError", "check_start"]
