"""Where a verify result of another game than international is filed: under that game's own rule.

The filing of :mod:`conformance.core.filing` knows the FMJD articles only (docs/rulesets.md), so a
run of another rule set files its results here. A wrong legal-move answer is filed under the one
**switch** that explains it, found by trying: the switch whose other value makes the oracle of the
game list exactly the engine's moves (an engine of international draughts on a Russian board lists
the maximum captures only: with ``captureChoice: maximum`` the oracle agrees, so the failure is the
game's free-choice rule). Anything else is filed by the article the check names, each FMJD article
of a switch read as that switch's article in the game's rules file (``cite``: ``fsr:1.5.14``), an
article of no switch as FMJD's own number (``fmjd:4.6``), as the rule sets name their loss
articles. A rules file of a user's own, without citations, names the switch itself
(``my-game:captureChoice``).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
from collections.abc import Iterable, Sequence
from typing import Any, Final

from conformance.core.rule_sets import RuleSet
from oracle.moves import legal_moves
from oracle.position import Position
from oracle.rules import CaptureChoice, MidCaptureCrowning, Rules
from oracle.ruleset import BUILTIN

MoveKey = tuple[int, int, frozenset[int]]

SWITCH_OF_ARTICLE: Final = {
    "4.2": "captureChoice",
    "4.13": "captureChoice",
    "4.14": "captureChoice",
    "4.15": "crownMidCapture",
    "4.1": "menCaptureBackward",
    "4.3": "flyingKings",
    "3.9": "flyingKings",
}
"""The FMJD articles that are one switch of a rules file (the capture and king rules)."""

_ALTERNATIVES: Final[tuple[tuple[str, str, tuple[Any, ...]], ...]] = (
    ("captureChoice", "capture_choice", tuple(CaptureChoice)),
    ("crownMidCapture", "mid_capture_crowning", tuple(MidCaptureCrowning)),
    ("menCaptureBackward", "men_capture_backward", (True, False)),
    ("flyingKings", "flying_kings", (True, False)),
)
"""Each switch a legal-move answer can break: its name in a rules file, in :class:`Rules`, its values."""


def switch_article(rule_set: RuleSet, switch: str) -> str:
    """The article of ``switch`` as the game's rules file cites it (``source:article``), else
    ``name:switch``."""
    cited = _citations(rule_set.name).get(switch) if rule_set.is_builtin else None
    return cited or f"{rule_set.name}:{switch}"


def game_article(rule_set: RuleSet, article: str) -> str:
    """An article the checks name (FMJD's numbering) as the game names it (see the module)."""
    if rule_set.is_default or ":" in article or article == "?":
        return article
    switch = SWITCH_OF_ARTICLE.get(article)
    return switch_article(rule_set, switch) if switch else f"fmjd:{article}"


def game_articles(rule_set: RuleSet, articles: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(game_article(rule_set, article) for article in articles))


def broken_switch(rule_set: RuleSet, position: Position, answer: Sequence[MoveKey]) -> str | None:
    """The switch whose other value makes the game's oracle list exactly ``answer`` (the first in
    :data:`_ALTERNATIVES` order), as its article; None when no single switch explains it."""
    given = {(start, end, frozenset(taken)) for start, end, taken in answer}
    rules = rule_set.rules
    for switch, field, values in _ALTERNATIVES:
        for value in values:
            if value == getattr(rules, field):
                continue
            other: Rules = dataclasses.replace(rules, **{field: value})
            if {move.key for move in legal_moves(position, other)} == given:
                return switch_article(rule_set, switch)
    return None


@functools.cache
def _citations(name: str) -> dict[str, str]:
    """``switch -> source:article`` from a built-in rules file's ``cite``."""
    if name not in BUILTIN:
        return {}
    import yaml  # the harness's dependency, as core/rule_sets.py reads the same files

    text = (importlib.resources.files("oracle") / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")
    cite = yaml.safe_load(text).get("cite") or {}
    found: dict[str, str] = {}
    for switch, citation in cite.items():
        article = citation.get("article") if isinstance(citation, dict) else None
        article = article[0] if isinstance(article, list) and article else article
        source = citation.get("source") if isinstance(citation, dict) else None
        if isinstance(article, str) and isinstance(source, str):
            found[switch] = f"{source}:{article}"
    return found
