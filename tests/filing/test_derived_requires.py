"""What a case relies on is derived from its content (conformance.core.filing.questions), and every
case's hand-written ``requires`` holds it: a test per case, naming the rules it misses."""

from __future__ import annotations

from functools import cache

import pytest

from conformance.core.corpus import Case, Corpus, load_corpus
from conformance.core.corpus.load import _build_case
from conformance.core.filing.draws import draw_requires
from conformance.core.filing.questions import derived_requires


@cache
def corpus() -> Corpus:
    return load_corpus()


@pytest.mark.parametrize("case", corpus().cases, ids=lambda c: c.id)
def test_requires_hold_what_the_case_relies_on(case: Case) -> None:
    missing = sorted(derived_requires(case) - set(case.requires))
    assert not missing, f"{case.where}: {case.id} relies on {missing} but does not require them"


def _case(position: str, **expect: object) -> Case:
    raw = {"id": "t", "description": "t", "source": "t", "position": position, "expect": expect}
    readings = corpus().readings
    return _build_case(raw, "t.yaml", 1, "t", ("6.2", ()), corpus().articles, readings)


def test_a_king_step_of_one_square_relies_on_nothing_a_long_one_on_3_9() -> None:
    one = _case("W:WK46,K48:BK5,K3", outcome={"moves": ["46-41"], "result": "ongoing"})
    long = _case("W:WK46,K48:BK5,K3", outcome={"moves": ["46-37"], "result": "ongoing"})
    assert derived_requires(one) == frozenset()
    assert derived_requires(long) == {"3.9"}


def test_a_king_capture_of_any_length_relies_on_4_3() -> None:
    short = _case("W:WK46,K48:B41,K5,K3", outcome={"moves": ["46x37"], "result": "ongoing"})
    assert "4.3" in derived_requires(short)


def test_a_second_occurrence_before_the_answer_relies_on_6_1() -> None:
    cycle = ["50-44", "1-7", "44-50", "7-1"]
    assert "6.1" in draw_requires("W:WK50,48:BK1,3", {}, cycle, "ongoing", None)
    assert "6.1" not in draw_requires("W:WK50,48:BK1,3", {}, cycle[:3], "ongoing", None)


def test_a_second_occurrence_after_the_answer_does_not_count() -> None:
    cycle = ["50-44", "1-7", "44-50", "7-1"]
    assert "6.1" not in draw_requires("W:WK50,48:BK1,3", {}, cycle, "draw", 3)


def test_the_setup_counters_count() -> None:
    assert "6.1" in draw_requires(
        "W:WK50,48:BK1,3", {"occurrences": 2, "no_progress_plies": 8}, [], "ongoing", None
    )
    assert "6.2" in draw_requires("W:WK50,48:BK1,3", {"no_progress_plies": 30}, ["50-44"], "ongoing", None)
    assert "6.2" not in draw_requires(
        "W:WK50,48:BK1,3", {"no_progress_plies": 20}, ["50-44"], "ongoing", None
    )


def test_endgame_material_relies_on_its_count_and_a_lone_man_on_the_reading() -> None:
    assert draw_requires("W:WK46,K48,K50:BK5", {}, [], "ongoing", None) == {"6.3"}
    assert draw_requires("W:WK46,K48:BK5", {}, [], "ongoing", None) == {"6.4"}
    assert draw_requires("W:WK46:BK5", {}, [], "ongoing", None) == {"6.4"}
    assert draw_requires("W:WK46,48:B5", {}, [], "ongoing", None) == {"endgame-lone-king-only"}
    assert draw_requires("W:W46,48,49:BK5", {}, [], "ongoing", None) == frozenset()  # three men: no ending
