"""Filing a failure of another game than international draughts.

:mod:`conformance.core.filing` finds the one rule an answer breaks from the FMJD rules; a game of
another rule set (docs/rulesets.md) has its own articles, and its failures are filed here, more
simply: under the case's own rule, except for two faults that belong to another article of the
game whatever the case checks -- quiet moves listed beside a compulsory capture (the game's capture
article, as its rules file cites ``captureChoice``) and a draw declared or missed at the wrong ply
(the game's draw article the engine misapplies).
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from conformance.core.corpus.load import draw_articles
from conformance.core.corpus.model import Case, LegalMovesQuestion
from conformance.core.filing import Filing
from conformance.core.protocol import MoveSpec


def files(case: Case) -> bool:
    """Whether :mod:`conformance.core.filing` can say which rule a wrong answer of ``case`` breaks:
    it knows international draughts only, so another game's failure stays under the case's own
    rule (the one its file checks: ``fsr:1.5.14``, never an FMJD article of another game)."""
    return case.rule_set.is_default


def quiet_beside_capture(
    case: Case, question: LegalMovesQuestion, missing: Set[MoveSpec], extra: Set[MoveSpec]
) -> Filing | None:
    """In another game than international: quiet moves listed where every legal move is a capture
    (and none of them missed) break the game's compulsory capture, not the case's own rule (a
    king's step listed beside its capture is no fault of the king's move): filed under the
    article its rule set cites for the capture rule (``acf:1.20``)."""
    article = case.rule_set.capture_article
    every_capture = bool(question.moves) and all(move.captured for move in question.moves)
    if article is None or not every_capture or missing or not extra or any(move.captured for move in extra):
        return None
    return Filing(article, (), "lists quiet moves where a capture is compulsory")


def draw_misapplied(case: Case, got: dict[str, Any], want: dict[str, Any]) -> Filing | None:
    """In another game than international: a wrong outcome is a fault of the draw article the
    engine applies at the wrong ply (the one it names), or of the one it misses (the expected one),
    when that is one of the game's draw articles; else it stays under the case's own rule."""
    named = got["rule"] if got["result"] == "draw" else want["rule"]
    if isinstance(named, str) and named in draw_articles(case.rule_set):
        return Filing(named, (), f"the draw of {named} at the wrong ply")
    return None
