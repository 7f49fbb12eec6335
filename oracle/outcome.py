"""The outcome of a game: its result, the article that decided it and the ply (Art. 6, 7.2).

An :class:`Outcome` is what :meth:`oracle.game.Game.outcome` answers and what the case files and the
command line write (:meth:`Outcome.to_json`): ``"6.1"``-``"6.4"`` for a draw (Art. 6), ``"7.2.2"``
(no piece left) or ``"7.2.3"`` (every piece blocked) for a win (Art. 7.2). Which article decides,
and when, is the game's (:mod:`oracle.game`); here are the values, and the PDN token of each result
(:data:`RESULT_TOKENS`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, Final

from oracle.errors import excerpt, key_text
from oracle.position import Color

REPETITION: Final = "6.1"
NO_PROGRESS: Final = "6.2"
NO_PIECES: Final = "7.2.2"
BLOCKED: Final = "7.2.3"

_RULE_NAMES: Final = {
    REPETITION: "the same position occurred again",
    NO_PROGRESS: "only king moves without capture",
    "6.3": "three pieces against a lone king",
    "6.4": "two pieces or fewer against a lone king",
    NO_PIECES: "the loser has no piece left",
    BLOCKED: "the loser's pieces are all blocked",
}


class Result(enum.Enum):
    """Where a game stands: still going, won by one side, or drawn."""

    ONGOING = "ongoing"
    WHITE_WINS = "white_wins"
    BLACK_WINS = "black_wins"
    DRAW = "draw"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The result of a game, the article that decided it and the ply at which it happened.

    ``rule`` is ``"6.1"``-``"6.4"`` for a draw (Art. 6), ``"7.2.2"`` (no piece left) or ``"7.2.3"``
    (every piece blocked) for a win (Art. 7.2); ``ply`` counts from the start or setup position
    (the first move is ply 1; 0 when the game is over at its setup). Both are None while the
    game goes on.
    """

    result: Result
    rule: str | None = None
    ply: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.result, Result):
            raise ValueError(f"an outcome's result must be a Result, not {excerpt(self.result)}")
        if self.result is Result.ONGOING:
            if self.rule is not None or self.ply is not None:
                raise ValueError("an ongoing game has no deciding rule and no final ply")
        elif not isinstance(self.rule, str) or not isinstance(self.ply, int) or isinstance(self.ply, bool):
            raise ValueError(f"a finished game ({self.result.value}) needs a rule (str) and a ply (int)")
        elif self.ply < 0:
            raise ValueError(f"the ply of an outcome must be 0 or more, not {excerpt(self.ply)}")

    @property
    def is_over(self) -> bool:
        return self.result is not Result.ONGOING

    @property
    def winner(self) -> Color | None:
        """The side that won, or None (ongoing or drawn)."""
        if self.result is Result.WHITE_WINS:
            return Color.WHITE
        if self.result is Result.BLACK_WINS:
            return Color.BLACK
        return None

    def to_json(self) -> dict[str, str | int | None]:
        """``{"result": ..., "rule": ..., "ply": ...}``, the form the case files and the CLI use."""
        return {"result": self.result.value, "rule": self.rule, "ply": self.ply}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Read the :meth:`to_json` form back (``rule`` and ``ply`` may be left out when ongoing)."""
        if not isinstance(data, Mapping):
            raise ValueError(
                f"an outcome must be a mapping like {{result: draw, rule: '6.1', ply: 8}}, not {excerpt(data)}"
            )
        unknown = sorted(key_text(key) for key in data if key not in ("result", "rule", "ply"))
        if unknown:
            raise ValueError(f"unknown outcome field(s) {', '.join(unknown)}: expected result, rule, ply")
        if "result" not in data:
            raise ValueError("an outcome needs a 'result' (ongoing, white_wins, black_wins or draw)")
        try:
            result = Result(data["result"])
        except ValueError:
            choices = ", ".join(r.value for r in Result)
            raise ValueError(f"outcome result {excerpt(data['result'])} is not one of {choices}") from None
        rule = data.get("rule")
        if rule is not None and not isinstance(rule, str):
            rule = excerpt(rule)  # e.g. a number written unquoted: 6.1 -> "6.1"
        return cls(result, rule, data.get("ply"))

    def __str__(self) -> str:
        if self.result is Result.ONGOING:
            return "ongoing"
        reason = f"Art. {self.rule}" + (f", {_RULE_NAMES[self.rule]}" if self.rule in _RULE_NAMES else "")
        if self.result is Result.DRAW:
            return f"draw ({reason}) at ply {self.ply}"
        return f"{self.winner} wins ({reason}) at ply {self.ply}"


ONGOING: Final = Outcome(Result.ONGOING)


RESULT_TOKENS: Final = {
    Result.WHITE_WINS: "2-0",
    Result.BLACK_WINS: "0-2",
    Result.DRAW: "1-1",
    Result.ONGOING: "*",
}
"""The PDN game-termination token of each result."""
