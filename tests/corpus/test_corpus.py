"""The real corpus: it loads, meets the coverage issue 4 asks for, and the oracle passes every case.

The oracle passing is a check of both: a case and the oracle were written independently (the
case from the rules text or a cited source), so a disagreement means one of them is wrong.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from conformance.core.corpus import Case, Corpus, LegalMovesQuestion, OutcomeQuestion, load_corpus
from conformance.core.results import Status
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.evaluate import ask, question_keys


@cache
def corpus() -> Corpus:
    return load_corpus()


#: Issue 4's minimum number of cases per article (or group of articles). A case counts for the
#: rule it checks and for the rules it requires: all of them are exercised by it.
MINIMUM_CASES = {
    ("2",): 12,
    ("3.4", "3.5", "3.9"): 12,
    ("4.1",): 8,
    ("4.3",): 12,
    ("4.8", "4.11"): 12,
    ("4.13",): 15,
    ("4.14",): 6,
    ("4.15",): 8,
    ("6.1",): 8,
    ("6.2",): 8,
    ("6.3",): 10,
    ("6.4",): 10,
    ("7.2", "7.2.2", "7.2.3"): 6,
    ("perft",): 4,
    ("PDN", "Hub"): 15,
}


def test_the_corpus_has_at_least_200_cases() -> None:
    assert len(corpus().cases) >= 200


@pytest.mark.parametrize("articles", list(MINIMUM_CASES), ids=lambda a: "+".join(a))
def test_coverage_per_article(articles: tuple[str, ...]) -> None:
    cases = [case for case in corpus().cases if set(case.articles) & set(articles)]
    assert len(cases) >= MINIMUM_CASES[articles], f"{len(cases)} cases check or require {articles}"


def test_every_published_perft_position_is_in_the_corpus() -> None:
    published = {
        "W:W31-50:B1-20",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "W:W6,7,8,9,10:B41,42,43,44,45",
    }
    from oracle.position import Position

    with_perft = {
        Position.from_fen(c.position) for c in corpus().cases if any(q.kind == "perft" for q in c.questions)
    }
    assert {Position.from_fen(fen) for fen in published} <= with_perft


def test_the_long_diagonal_clause_is_shown_not_applied() -> None:
    cases = [
        c
        for c in corpus().cases
        if c.interpretation and c.interpretation.reading == "long-diagonal-not-applied"
    ]
    assert cases, "no case shows the long-diagonal clause of 6.3 as not applied"
    assert any(
        q.kind == "outcome" and q.rule == "6.3" and q.ply
        for c in cases
        for q in c.questions
        if isinstance(q, OutcomeQuestion)
    )


def test_every_case_cites_a_source_and_a_registered_article() -> None:
    for case in corpus().cases:
        assert case.source.strip()
        assert case.article in corpus().articles
        assert all(rule in corpus().articles or rule in corpus().readings for rule in case.requires)


def test_every_reading_is_used_by_some_case() -> None:
    used = Counter(c.interpretation.reading for c in corpus().cases if c.interpretation)
    unused = sorted(set(corpus().readings) - set(used))
    assert not unused, f"readings no case relies on: {unused}"


def test_legal_move_answers_never_list_a_move_twice() -> None:
    for case in corpus().cases:
        for question in case.questions:
            if isinstance(question, LegalMovesQuestion):
                assert len({(m.from_square, m.to_square, m.captured) for m in question.moves}) == len(
                    question.moves
                )


def _all_cases() -> list[Case]:
    return list(corpus().cases)


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if "slow" in c.tags else []) for c in _all_cases()],
)
def test_the_oracle_passes(case: Case) -> None:
    engine = OracleEngine()
    failures = []
    for key, question in question_keys(case):
        result = ask(engine, case, key, question)
        if result.status is not Status.PASS:
            failures.append(
                f"[{key}] {result.status.value}: {result.message} (expected {result.expected}, got {result.got})"
            )
    assert not failures, f"{case.where}: " + "; ".join(failures)
