"""The checks catch an engine that gets one capture rule wrong, without any expected answer.

The "engines" are the oracle with one rule switch flipped (oracle.rules): each reads one of
Art. 3.9/4.3, 4.1, 4.13 or 4.15 differently. Wherever such an engine's answer differs from the
rules' answer, :func:`verify_position` must report something; and on the published positions
each of them is caught at least once.
"""

from __future__ import annotations

import dataclasses

import pytest

from conformance.verify import strategies as gen
from conformance.verify.checks import verify_position
from conformance.verify.choices import RandomChooser
from conformance.verify.findings import FindingKind
from oracle.moves import legal_moves
from oracle.position import Position
from oracle.rules import INTERNATIONAL, CaptureChoice, MidCaptureCrowning, Rules

from .published import PUBLISHED_CAPTURES, PUBLISHED_QUIET

MUTANTS = {
    "free capture choice (4.13)": (
        dataclasses.replace(INTERNATIONAL, capture_choice=CaptureChoice.FREE),
        "W:W48:B24,K31,34,K42,43",
        FindingKind.OPTIMALITY,
    ),
    "crowned mid-capture (4.15)": (
        dataclasses.replace(INTERNATIONAL, mid_capture_crowning=MidCaptureCrowning.CROWNS),
        "W:W15:B9,10",
        FindingKind.SOUNDNESS,
    ),
    "men capture forward only (4.1)": (
        dataclasses.replace(INTERNATIONAL, men_capture_backward=False),
        "W:W35:B30,K40",
        FindingKind.COMPLETENESS,
    ),
    "short kings (3.9, 4.3)": (
        dataclasses.replace(INTERNATIONAL, flying_kings=False),
        "W:WK46:B23",
        FindingKind.COMPULSORY_CAPTURE,
    ),
}

PUBLISHED = [row[0] for row in PUBLISHED_CAPTURES + PUBLISHED_QUIET]


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_mutant_is_caught_on_its_published_position(name: str) -> None:
    rules, fen, kind = MUTANTS[name]
    answer = legal_moves(Position.from_fen(fen), rules)
    assert kind in {finding.kind for finding in verify_position(fen, answer)}


def _wrong_answers_are_caught(rules: Rules, positions: list[Position]) -> int:
    differing = 0
    for position in positions:
        answer = legal_moves(position, rules)
        if set(answer) != set(legal_moves(position)):
            differing += 1
            assert verify_position(position, answer), f"wrong answer not caught: {position.fen()}"
    return differing


def _positions(rich: int, chains: int) -> list[Position]:
    positions = [Position.from_fen(fen) for fen in PUBLISHED]
    positions += [gen.capture_rich_position(RandomChooser(seed)) for seed in range(rich)]
    positions += [gen.long_chain_position(RandomChooser(seed), 4, 10) for seed in range(chains)]
    return positions


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_wrong_answer_of_a_mutant_is_caught(name: str) -> None:
    rules, _, _ = MUTANTS[name]
    assert _wrong_answers_are_caught(rules, _positions(20, 6)) > 0, (
        "the mutant never differs: the test is void"
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_wrong_answer_of_a_mutant_is_caught_deep(name: str) -> None:
    rules, _, _ = MUTANTS[name]
    positions = _positions(0, 0)
    positions += [gen.capture_rich_position(RandomChooser(seed)) for seed in range(1000, 1500)]
    positions += [gen.long_chain_position(RandomChooser(seed), 4, 10) for seed in range(1000, 1150)]
    positions += [gen.playout(RandomChooser(seed)) for seed in range(300)]
    assert _wrong_answers_are_caught(rules, positions) > 0
