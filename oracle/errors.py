"""The oracle's exceptions: each names what was wrong and where.

All of them derive from :class:`ValueError`, so a caller that only wants to know
"bad input" can catch that; the subclasses let a caller tell the cases apart.
"""

from __future__ import annotations

from typing import Final


class RulesError(ValueError):
    """A rule set is malformed or unknown: a rules file, a built-in name or a switch's value.

    The message is one line naming the file (or rule set) and the field.
    """


class UnsettledRuleError(RulesError):
    """A game reached a point that a draw rule its rule set leaves unsettled (``null``) could decide."""


class FenError(ValueError):
    """A PDN FEN string is malformed or describes an invalid position (Art. 2)."""


class MoveError(ValueError):
    """A move text cannot be turned into a legal move of the position."""


class MoveSyntaxError(MoveError):
    """The move text is not PDN or Hub move notation at all (e.g. ``32--28``, ``e3``)."""


class SquareRangeError(MoveError):
    """The move text names a square outside 1-50."""


class IllegalMoveError(MoveError):
    """The move text is well formed but no legal move of the position matches it."""


class AmbiguousMoveError(MoveError):
    """The move text matches more than one legal move (Art. 8 / PDN 3.0: give the full route)."""

    def __init__(self, message: str, candidates: tuple[str, ...]) -> None:
        super().__init__(message)
        self.candidates = candidates


class GameOverError(ValueError):
    """A move was offered after the game had ended (Art. 6, 7).

    ``outcome`` is the game's :class:`oracle.outcome.Outcome` (typed loosely here to keep this
    module free of imports).
    """

    def __init__(self, message: str, outcome: object = None) -> None:
        super().__init__(message)
        self.outcome = outcome


class SetupError(ValueError):
    """Counters given for a setup position do not fit that position (Art. 6)."""


class PdnError(ValueError):
    """A PDN game text is malformed or one of its moves cannot be played.

    The fields say where, when known: the game's number in the file (from 1), the line, the move
    number as written (``"12."`` for White's twelfth move, ``"12..."`` for Black's), the move text
    and the FEN of the position it was played in.
    """

    def __init__(
        self,
        message: str,
        *,
        game: int | None = None,
        line: int | None = None,
        move_number: str | None = None,
        move_text: str | None = None,
        fen: str | None = None,
    ) -> None:
        super().__init__(message)
        self.game = game
        self.line = line
        self.move_number = move_number
        self.move_text = move_text
        self.fen = fen


# -- showing bad input in a message -----------------------------------------------------------

EXCERPT_LENGTH: Final = 200
"""How much of a bad input a message copies: a FEN, a move text or a PDN token is shorter."""


def excerpt(value: object, limit: int = EXCERPT_LENGTH) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (its length said) when longer.

    Messages name the offending input without copying megabytes of it. An integer too long for
    ``repr`` (Python refuses more than 4,300 digits) is described by its size instead.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, int) and value.bit_length() > 3 * limit:  # over ~limit digits
        return f"an integer of about {round(value.bit_length() * 0.30103):,} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # e.g. a container holding a huge integer
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def key_text(key: object) -> str:
    """A key or an article as a message shows it: short strings as they are, anything else cut."""
    return key if isinstance(key, str) and len(key) <= 40 else excerpt(key)


def number_excerpt(digits: str, limit: int = 30) -> str:
    """A number written in ASCII ``digits``, without its leading zeros, cut when very long.

    Never converts the digits to ``int`` (Python refuses more than 4,300 digits).
    """
    significant = digits.lstrip("0") or "0"
    if len(significant) <= limit:
        return significant
    return f"{significant[:limit]}... ({len(significant):,} digits)"
