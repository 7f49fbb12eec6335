"""Published positions with their expected capture sets, as the sources cited below give them.

Each entry: FEN, the expected legal moves as (from, to, captured) -- all captures here -- and
the source. Transcribed from the cited sources, never from a program's output.
"""

from __future__ import annotations

from typing import Final

Key = tuple[int, int, frozenset[int]]


def _c(from_square: int, to_square: int, *captured: int) -> Key:
    return (from_square, to_square, frozenset(captured))


_EXTREME_MAN: Final = [
    _c(23, 1, 7, 8, 9, 17, 18, 19, 27, 29, 38, 39),
    _c(23, 1, 7, 8, 9, 17, 18, 20, 27, 28, 29, 30),
    _c(23, 1, 7, 8, 9, 17, 18, 20, 27, 30, 38, 39),
    _c(23, 5, 8, 9, 10, 17, 19, 20, 27, 28, 29, 30),
    _c(23, 5, 8, 9, 10, 17, 19, 20, 27, 30, 38, 39),
    _c(23, 5, 8, 9, 10, 18, 19, 20, 28, 30, 38, 39),
    _c(23, 41, 8, 9, 17, 19, 27, 28, 29, 37, 38, 39),
    _c(23, 41, 8, 9, 17, 20, 27, 28, 30, 37, 38, 39),
    _c(23, 41, 17, 18, 19, 20, 27, 28, 30, 37, 38, 39),
    _c(23, 45, 8, 9, 17, 20, 27, 29, 30, 38, 39, 40),
    _c(23, 45, 8, 9, 18, 20, 28, 29, 30, 38, 39, 40),
    _c(23, 45, 17, 18, 19, 20, 27, 29, 30, 38, 39, 40),
]

_EXTREME_KING_ALL: Final = (8, 9, 10, 11, 17, 18, 19, 20, 27, 29, 30, 31, 38, 39, 42, 44)

PUBLISHED_CAPTURES: Final[list[tuple[str, frozenset[Key], str]]] = [
    ("W:W28,32:B23", frozenset({_c(28, 19, 23)}), "dctl FFJD, Art. 4.2"),
    ("W:W35:B30,K40", frozenset({_c(35, 24, 30), _c(35, 44, 40)}), "dctl IT, Art. 4.1/4.14"),
    (
        "W:WK46:B23",
        frozenset({_c(46, 5, 23), _c(46, 10, 23), _c(46, 14, 23), _c(46, 19, 23)}),
        "dctl FFJD, 4.3",
    ),
    (
        "W:WK41:B23",
        frozenset({_c(41, 5, 23), _c(41, 10, 23), _c(41, 14, 23), _c(41, 19, 23)}),
        "dctl IT, 4.3",
    ),
    ("W:W15:B8,19,20", frozenset({_c(15, 2, 8, 19, 20)}), "dctl FFJD, Art. 4.5/3.5"),
    (
        "W:W47:B13,14,22,24,31,34,K41,44",
        frozenset({_c(47, 49, 13, 14, 22, 24, 31, 34, 41, 44)}),
        "dctl IT, Art. 4.5",
    ),
    (
        "W:WK47:B9,12,33",
        frozenset({_c(47, 17, 9, 12, 33), _c(47, 21, 9, 12, 33), _c(47, 26, 9, 12, 33)}),
        "dctl FFJD, Art. 4.6",
    ),
    (
        "W:WK1:B7,9,17,19,20,30,31,33,43,44",
        frozenset({_c(1, 15, 7, 9, 17, 19, 20, 30, 31, 33, 43, 44)}),
        "dctl IT, Art. 4.6",
    ),
    ("W:WK41,49:B9,10,12,19,38", frozenset({_c(41, 43, 9, 12, 19, 38)}), "dctl FFJD, Art. 4.8"),
    (
        "B:W27,28,38,39,42:BK25",
        frozenset({_c(25, 33, 27, 28, 39, 42)}),
        "dctl IT, Art. 4.8/4.11 (Turkish strike)",
    ),
    ("W:W48:B24,K31,34,K42,43", frozenset({_c(48, 19, 24, 34, 43)}), "dctl FFJD, Art. 4.13"),
    ("W:WK48:B7,8,31,34,K42,44", frozenset({_c(48, 50, 7, 8, 34, 44)}), "dctl IT, Art. 4.13"),
    ("W:W26:B12,K21,31,32", frozenset({_c(26, 8, 12, 21), _c(26, 28, 31, 32)}), "dctl IT, Art. 4.14"),
    ("W:W15:B9,10", frozenset({_c(15, 13, 9, 10)}), "dctl IT, Art. 4.15"),
    (
        "W:WK38:B18,19,32,33",
        frozenset(_c(38, to, 18, 19, 32, 33) for to in (38, 42, 43, 47, 49)),
        "pydraughts, Art. 4.6 (loop through the origin; 6 routes = 5 moves)",
    ),
    (
        "W:WK47:B14,19,29,31,42",
        frozenset({_c(47, 36, 14, 29, 31, 42), _c(47, 36, 19, 29, 31, 42)}),
        "pydraughts, Art. 8.2 (two different 47x36)",
    ),
    (
        "W:WK4:B13,32,37,20",
        frozenset({_c(4, 15, 13, 20, 32), _c(4, 15, 13, 20, 37)}),
        "py-draughts, Art. 8.2 (two different 4x15)",
    ),
    ("B:WK2,28,31,44:B20,K50", frozenset({_c(50, 36, 28, 31, 44)}), "py-draughts, Art. 4.6"),
    (
        "B:W6,24,28,38,41:B13,K49",
        frozenset({_c(49, 30, 24, 28, 38), _c(49, 35, 24, 28, 38)}),
        "py-draughts, 4.8",
    ),
    (
        "W:WK23:B28,17,10,20,29,39,40,38,31,8,9",
        frozenset({_c(23, 2, 8, 9, 10, 17, 20, 28, 29, 31, 38, 39)}),
        "lidraughts MoveGenPerfTest, Art. 4.6",
    ),
    (
        "W:W23:B7,8,9,10,17,18,19,20,27,28,29,30,37,38,39,40",
        frozenset(_EXTREME_MAN),
        "lidraughts stress position, Art. 4.5/4.15",
    ),
    (
        "W:WK23:B8,9,10,11,17,18,19,20,27,28,29,30,31,38,39,42,44",
        frozenset(
            {_c(23, to, *_EXTREME_KING_ALL) for to in (4, 5, 15)}
            | {_c(23, 32, 8, 9, 10, 11, 17, 18, 20, 27, 28, 29, 30, 31, 38, 39, 42, 44)}
        ),
        "lidraughts stress position, Art. 4.6",
    ),
    (
        "W:W38:B22,23,32,33",
        frozenset({_c(38, 38, 22, 23, 32, 33)}),
        "sources.md notation table (a man's loop)",
    ),
]
"""Positions where the side to move must capture, with the complete expected set."""

PUBLISHED_QUIET: Final[list[tuple[str, frozenset[Key], str]]] = [
    ("W:W28", frozenset({_c(28, 22), _c(28, 23)}), "dctl FFJD, Art. 3.4"),
    ("B:B13", frozenset({_c(13, 18), _c(13, 19)}), "dctl FFJD, Art. 3.4"),
    ("W:W8", frozenset({_c(8, 2), _c(8, 3)}), "dctl FFJD, Art. 3.5"),
    (
        "W:WK28",
        frozenset(_c(28, to) for to in (5, 6, 10, 11, 14, 17, 19, 22, 23, 32, 33, 37, 39, 41, 44, 46, 50)),
        "dctl FFJD, Art. 3.9",
    ),
    ("B:BK1", frozenset(_c(1, to) for to in (6, 7, 12, 18, 23, 29, 34, 40, 45)), "dctl FFJD, Art. 3.9"),
    (
        "W:WK23",
        frozenset(_c(23, to) for to in (1, 5, 7, 10, 12, 14, 18, 19, 28, 29, 32, 34, 37, 40, 41, 45, 46)),
        "dctl IT, Art. 3.9",
    ),
    (
        "B:W7,28,31,33:B20,30,K50",
        frozenset({_c(20, 24), _c(20, 25), _c(30, 34), _c(30, 35), _c(50, 39), _c(50, 44), _c(50, 45)}),
        "py-draughts, Art. 4.3 (no jump over two adjacent pieces)",
    ),
]
"""Positions without a capture, with the complete expected set of quiet moves."""
