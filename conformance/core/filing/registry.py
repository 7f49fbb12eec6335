"""The rules a filing names: articles, and the project's readings with the articles they read
(``cases/articles.yaml``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from conformance.core.corpus.load import CORPUS_ROOT, CorpusError, load_registry


@functools.cache
def readings() -> Mapping[str, tuple[str, ...]]:
    """Reading id -> the articles it reads (empty when the registry cannot be read)."""
    try:
        _, found = load_registry(CORPUS_ROOT)
    except (CorpusError, OSError):
        return {}
    return {name: tuple(reading.articles) for name, reading in found.items()}


def rule_articles(rule: str) -> tuple[str, ...]:
    """The articles of a rule: a reading's articles, or the article itself."""
    return readings().get(rule, (rule,))


def rule_name(rule: str) -> str:
    """``Art. 4.3``, or ``reading start-square-empty``."""
    return f"reading {rule}" if rule in readings() else f"Art. {rule}"
