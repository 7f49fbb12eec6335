"""Protocol 1.1 over JSON-lines: each new answer, read by the adapter and judged by ``evaluate.ask``.

A scripted fake (``fakes/scripted.py``) gives one fixed answer per operation; the cases below are
worked out by hand, so the results say how each 1.1 answer is judged: ``illegal`` about a legal
move is a ``fail`` charged to that move's rule, naming the move and its ply; ``illegal`` about
the position a ``skip`` when a side has no pieces, else a ``fail`` of Art. 2; perft ``counts``
short of the depth asked a ``skip`` once the depths given are right. A 1.1 engine without
``counters`` is only asked outcomes from default counters; a 1.0 engine keeps being asked all.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import assert_error

from conformance.core.corpus import CORPUS_ROOT, Case, load_corpus
from conformance.core.protocol import Capability, MoveRefused, PerftReached, PositionRefused
from conformance.core.results import Result, Status
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.harness.evaluate import ask, question_keys

FAKES = Path(__file__).parent / "fakes"

# Geometry (rules.md): 46 is the lower-left corner, its one diagonal runs 46-41-37-32-28-23-19-14-10-5.
# Black's man on 1 steps to 6 or 7 (forward for Black is toward 46-50). Nothing can capture.
CASES = """\
topic: Hand-worked questions for the protocol 1.1 answers
article: "6.2"
cases:
  - id: v11-king-on-the-long-diagonal
    description: A lone white king on 46 against a black man on 1; its moves along the long diagonal
    source: constructed
    position: "W:WK46:B1"
    # The king flies to any of 41, 37, 32, 28, 23, 19, 14, 10, 5: nine moves. After each, Black
    # has two (1-6, 1-7): perft 9, 18. After 46-28 1-7 the game goes on.
    expect:
      perft: [9, 18]
      after:
        - moves: ["46-28"]
          position: "B:WK28:B1"
      outcome: {moves: ["46-28", "1-7"], result: ongoing}
      notation:
        - {move: "46-28", pdn: "46-28", hub: "46-28"}
      move_texts:
        - {text: "46-28", notation: pdn, verdict: legal, move: "46-28"}
        - {text: "46-50", notation: pdn, verdict: illegal}
  - id: v11-king-with-counters
    description: The same position in the middle of a game, with counters
    source: constructed
    position: "W:WK46:B1"
    counters: {no_progress_plies: 4}
    expect:
      outcome: {moves: ["46-28"], result: ongoing}
  - id: v11-lone-king
    article: "3.9"
    description: A lone white king on 46, Black without pieces (a position a game ends in)
    source: constructed
    position: "W:WK46"
    expect:
      legal_moves: ["46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5"]
"""


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    root = tmp_path_factory.mktemp("corpus")
    for name in ("articles.yaml", "schema.json"):
        shutil.copy(CORPUS_ROOT / name, root / name)
    (root / "v11.yaml").write_text(CASES, encoding="utf-8")
    return {case.id: case for case in load_corpus(root).cases}


def scripted(*, minor: int | None = 1, capabilities: str = "", **replies: Any) -> JsonlEngine:
    """The scripted fake answering each operation ``op`` with the body ``replies[op]``."""
    command = [sys.executable, str(FAKES / "scripted.py"), "--capabilities", capabilities]
    command += [] if minor is None else ["--minor", str(minor)]
    for op, body in replies.items():
        command += ["--reply", f"{op}={json.dumps(body)}"]
    return JsonlEngine(command)


def judged(engine: JsonlEngine, case: Case, kind: str) -> list[Result]:
    """The results of the questions of ``kind`` of ``case``."""
    return [
        ask(engine, case, key, question) for key, question in question_keys(case) if question.kind == kind
    ]


@pytest.fixture
def engines() -> Iterator[list[JsonlEngine]]:
    started: list[JsonlEngine] = []
    yield started
    for engine in started:
        engine.close()


# -- a refused move -----------------------------------------------------------------------------


def test_a_legal_move_refused_in_play_is_a_fail_of_its_rule_naming_move_and_ply(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(play={"illegal": {"move": "46-28", "ply": 1, "reason": "kings step one square"}})
    engines.append(engine)
    with pytest.raises(MoveRefused) as refused:
        engine.play("W:WK46:B1", ["46-28"])
    assert (refused.value.move, refused.value.ply, refused.value.reason) == (
        "46-28",
        1,
        "kings step one square",
    )
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "after")
    assert result.status is Status.FAIL
    assert result.charged_to == "3.9"
    assert result.article == "6.2"
    assert "ply 1" in result.message
    assert "'46-28'" in result.message
    assert "3.9" in result.message
    assert "kings step one square" in result.message
    assert result.defect == "refuses a legal long king move"
    assert result.got == {"illegal": {"move": "46-28", "ply": 1}}


def test_a_legal_move_refused_in_outcome_is_charged_to_the_move_at_that_ply(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(outcome={"illegal": {"move": "1-7", "ply": 2}})
    engines.append(engine)
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "outcome")
    assert result.status is Status.FAIL
    assert result.charged_to == "3.4"  # a man's step
    assert "ply 2" in result.message
    assert "'1-7'" in result.message


def test_a_legal_move_refused_by_format_move_is_a_fail_of_its_rule(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(format_move={"illegal": {"move": "46-28", "ply": 1}})
    engines.append(engine)
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "notation")
    assert result.status is Status.FAIL
    assert result.charged_to == "3.9"
    assert "46-28" in result.message


@pytest.mark.parametrize(("index", "status"), [(0, Status.FAIL), (1, Status.PASS)])
def test_illegal_from_parse_move_is_the_verdict_illegal(
    cases: dict[str, Case], engines: list[JsonlEngine], index: int, status: Status
) -> None:
    engine = scripted(parse_move={"illegal": {"move": "46-28", "ply": 1}})
    engines.append(engine)
    results = judged(engine, cases["v11-king-on-the-long-diagonal"], "move_text")
    assert results[index].status is status
    if status is Status.FAIL:
        assert "read as illegal, expected legal" in results[index].message


def test_a_refused_ply_the_request_does_not_have_is_a_protocol_error(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(play={"illegal": {"move": "46-28", "ply": 2}})
    engines.append(engine)
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "after")
    assert_error(result, "protocol", "holds ply 2 illegal", "the request has 1 move")


def test_an_illegal_move_answer_where_no_move_is_given_is_malformed(engines: list[JsonlEngine]) -> None:
    engine = scripted(legal_moves={"illegal": {"move": "46-28", "ply": 1}})
    engines.append(engine)
    with pytest.raises(Exception, match="malformed") as raised:
        engine.legal_moves("W:WK46:B1")
    assert getattr(raised.value, "kind", None) == "protocol"


# -- a refused position ---------------------------------------------------------------------------


def test_a_refused_position_with_both_colours_is_a_fail_of_article_2(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(play={"illegal": {"position": "W:WK46:B1", "reason": "too few pieces"}})
    engines.append(engine)
    with pytest.raises(PositionRefused, match="too few pieces"):
        engine.play("W:WK46:B1", [])
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "after")
    assert result.status is Status.FAIL
    assert result.charged_to == "2"
    assert result.defect == "refuses a valid position"


def test_a_refused_position_where_a_side_has_no_pieces_is_a_skip(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(legal_moves={"illegal": {"position": "W:WK46", "reason": "bad position"}})
    engines.append(engine)
    (result,) = judged(engine, cases["v11-lone-king"], "legal_moves")
    assert result.status is Status.SKIP
    assert "a side has no pieces" in result.message
    assert "bad position" in result.message


def test_initial_position_cannot_refuse_a_position(engines: list[JsonlEngine]) -> None:
    engine = scripted(initial_position={"illegal": {"position": ""}})
    engines.append(engine)
    with pytest.raises(Exception, match="malformed"):
        engine.initial_position()


# -- perft to the depth reached -------------------------------------------------------------------


def test_perft_counts_short_of_the_depth_are_a_skip_correct_to_that_depth(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(perft={"counts": [9]})
    engines.append(engine)
    with pytest.raises(PerftReached) as reached:
        engine.perft("W:WK46:B1", 2)
    assert reached.value.counts == (9,)
    assert engine.perft("W:WK46:B1", 1) == 9
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "perft")
    assert result.status is Status.SKIP
    assert "correct to depth 1 of 2" in result.message


def test_perft_counts_with_a_wrong_depth_are_a_fail(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(perft={"counts": [8]})
    engines.append(engine)
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "perft")
    assert result.status is Status.FAIL
    assert "perft(1) = 8, expected 9" in result.message


def test_perft_counts_past_the_depth_asked_are_a_protocol_error(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(perft={"counts": [9, 18, 20]})
    engines.append(engine)
    (result,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "perft")
    assert_error(result, "protocol", "perft to depth 1 answered 3 counts")


# -- the start exchange and the counters capability --------------------------------------------------


def test_a_minor_1_engine_without_counters_is_asked_only_outcomes_from_default_counters(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(outcome={"result": "ongoing"}, capabilities="outcome")
    engines.append(engine)
    assert engine.minor == 1
    assert engine.info.capabilities == {Capability.OUTCOME}
    (fresh,) = judged(engine, cases["v11-king-on-the-long-diagonal"], "outcome")
    (setup,) = judged(engine, cases["v11-king-with-counters"], "outcome")
    assert fresh.status is Status.PASS
    assert setup.status is Status.UNSUPPORTED
    assert "counters" in setup.message


def test_a_minor_1_engine_declaring_counters_is_asked_outcomes_with_counters(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(outcome={"result": "ongoing"}, capabilities="outcome,counters")
    engines.append(engine)
    assert engine.info.capabilities == {Capability.OUTCOME, Capability.COUNTERS}
    (setup,) = judged(engine, cases["v11-king-with-counters"], "outcome")
    assert setup.status is Status.PASS


def test_a_protocol_1_0_engine_with_outcome_keeps_being_asked_outcomes_with_counters(
    cases: dict[str, Case], engines: list[JsonlEngine]
) -> None:
    engine = scripted(outcome={"result": "ongoing"}, capabilities="outcome", minor=None)
    engines.append(engine)
    assert engine.minor == 0
    assert Capability.COUNTERS in engine.info.capabilities
    (setup,) = judged(engine, cases["v11-king-with-counters"], "outcome")
    assert setup.status is Status.PASS
