"""The layering of the rules (docs/cases.md): a case may rely only on rules of lower layers.

So that the ``requires`` between rules form no cycle (the loader refuses one): a rule's failures
can be blocked only by more basic rules, never the other way round. A reading sits in the layer of
the highest article it reads; a case resting on a reading may also rely on the articles the
reading reads (none of them can rely on the reading: they are in its layer or below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

LAYERS: Final = (
    ("2", "2.8"),
    ("3.4", "3.9"),
    ("3.5", "4.2", "4.3"),
    ("4.1",),
    ("4.5", "4.6"),
    ("4.13",),
    ("4.8",),
    ("4.11",),
    ("4.14", "4.15"),
    ("7.2", "7.2.2", "7.2.3"),
    ("6.1",),
    ("6.2",),
    ("6.3",),
    ("6.4",),
    ("8",),
    ("perft", "PDN", "Hub"),
)
"""The rules, most basic first; rules on one line may not rely on each other."""

LAYER: Final = {rule: level for level, rules in enumerate(LAYERS) for rule in rules}


def layer_of(rule: str, readings: Mapping[str, Sequence[str]] | None = None) -> int:
    """The layer of an article, or of a reading (``readings``: reading -> its articles)."""
    if rule in LAYER:
        return LAYER[rule]
    articles = (readings or {}).get(rule, ())
    return max((LAYER[a] for a in articles if a in LAYER), default=len(LAYERS))


def below(rules: Sequence[str], rule: str, readings: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """Those of ``rules`` a case of ``rule`` may rely on: the ones in lower layers."""
    level = layer_of(rule, readings)
    return [other for other in rules if layer_of(other, readings) < level]


def suggested(
    rule: str, requires: Sequence[str], readings: Mapping[str, Sequence[str]]
) -> tuple[str, tuple[str, ...], str | None]:
    """A suggested case for a failure filed under ``rule``: its article, its ``requires`` (those
    of lower layers, so that it loads), and its reading (when ``rule`` is one: the case then rests
    on it and checks the first article it reads)."""
    reading = rule if rule in readings else None
    article = readings[rule][0] if reading is not None else rule
    kept = [r for r in below(list(dict.fromkeys(requires)), rule, readings) if r != article]
    return article, tuple(kept), reading
