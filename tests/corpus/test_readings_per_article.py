"""Every reading on every article it touches (the readings that are not about Art. 6 and 7.2; the
draw readings have their own games, tests/corpus/test_reading_games.py).

A reading of cases/articles.yaml lists the articles it reads. For each (reading, article) pair:

* a case filed under the article and resting on the reading, from a fresh game (no counters), tells
  the reading apart: the gallery's mutant reading it the other way there
  (:data:`conformance.engines.mutants.READING_ARTICLE_MUTANTS`) fails it;
* that mutant fails only the reading (its whole kill-matrix row: tests/attribution/test_gallery.py).

A new reading, or a new article for one, without its case and mutant fails here.
"""

from __future__ import annotations

from functools import cache

import pytest

from conformance.core.corpus import Case, Corpus, load_corpus
from conformance.core.results import Status
from conformance.engines.mutants import BREAKS, READING_ARTICLE_MUTANTS, mutant
from conformance.harness.evaluate import ask, question_keys


@cache
def corpus() -> Corpus:
    return load_corpus()


def _is_draw_rule(article: str) -> bool:
    return article.startswith(("6.", "7."))


def pairs() -> list[tuple[str, str]]:
    """(reading, article) for every reading not about the draw rules and game end."""
    return [
        (name, article)
        for name, reading in corpus().readings.items()
        if not all(_is_draw_rule(a) for a in reading.articles)
        for article in reading.articles
    ]


def telling_cases(reading: str, article: str) -> list[Case]:
    return [c for c in corpus().cases if c.reading == reading and c.article == article and not c.counters]


def test_every_reading_article_pair_has_a_mutant() -> None:
    assert set(READING_ARTICLE_MUTANTS) == set(pairs())
    assert len(pairs()) >= 11


@pytest.mark.parametrize(("reading", "article"), pairs(), ids=lambda x: str(x))
def test_a_fresh_case_of_the_article_tells_the_reading_apart(reading: str, article: str) -> None:
    cases = telling_cases(reading, article)
    assert cases, f"no case filed under {article} resting on {reading} starts from a fresh game"
    name = READING_ARTICLE_MUTANTS[(reading, article)]
    assert reading in BREAKS[name]
    engine = mutant(name)
    failing = [
        (case.id, key)
        for case in cases
        for key, question in question_keys(case)
        if ask(engine, case, key, question).status is Status.FAIL
    ]
    assert failing, f"{name} reads {reading} the other way, but no case of {article} resting on it tells"
