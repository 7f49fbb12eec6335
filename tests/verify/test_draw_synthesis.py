"""Synthesised games that tell two readings of Art. 6 apart: every switch and reading gets one,
and replaying it with the oracle under both readings confirms the difference.

The default run synthesises the readings whose games are short; ``--run-slow`` all of them, also
with one-square king steps.
"""

from __future__ import annotations

import itertools
import re

import pytest
import yaml

from conformance.core.draw_events import PROJECT, outcomes
from conformance.core.draw_games import abstract_game
from conformance.engines.mutants import CAPTURE_MUTANTS, MUTANTS
from conformance.engines.reading_mutants import READING_MUTANTS
from conformance.verify.draw_readings import READINGS
from conformance.verify.draw_realise import SHORT_KINGS
from conformance.verify.draw_synthesis import DistinguishingGame, SynthesisError, synthesise
from conformance.verify.readings import case_yaml
from oracle.board import row_of
from oracle.counters import Counters
from oracle.game import Game
from oracle.moves import legal_moves, play
from oracle.notation import parse_move
from oracle.position import Kind, Position

MOVE_RULE_MUTANTS = {
    "three-rows-of-men",
    "short-kings",
    "men-capture-forward-only",
    "free-capture-choice",
    "crowned-mid-capture",
    "kings-step-one-square",
}
"""Switches of the configuration that are not about Art. 6 (the rest of the gallery's non-capture
mutants are)."""

ART_6_READINGS = {
    "endgame-no-restart",
    "endgame-group-change",
    "endgame-lone-king-only",
    "long-diagonal-not-applied",
    "win-beats-draw",
    "draw-precedence",
}
"""The readings of cases/articles.yaml about the draw rules; ``ply-counting`` (how a ply is
numbered in a report) is a convention of the corpus, not a reading a game can tell apart."""

QUICK = (
    "repetition-on-second",
    "6.4-four-moves",
    "endgame-count-carried",
    "endgame-lone-piece",
    "highest-article-first",
    "no-endgame-counts",
)


def test_every_art_6_switch_mutant_and_reading_has_a_synthesis() -> None:
    draw_mutants = set(MUTANTS) - set(CAPTURE_MUTANTS) - MOVE_RULE_MUTANTS - set(READING_MUTANTS)
    assert draw_mutants <= set(READINGS), draw_mutants - set(READINGS)
    assert {r.reading for r in READINGS.values()} - {None} == ART_6_READINGS
    with open("cases/articles.yaml", encoding="utf-8") as file:
        registry = yaml.safe_load(file)["readings"]
    about_6 = {name for name, r in registry.items() if any(a.startswith("6.") for a in r["articles"])}
    assert about_6 - {"ply-counting"} == ART_6_READINGS


def _replay(game: Game, moves: tuple[str, ...]) -> list[dict[str, str | int | None]]:
    found = [game.outcome().to_json()]
    for text in moves:
        game.play(text)
        found.append(game.outcome().to_json())
    return found


def _check(found: DistinguishingGame) -> None:
    """Both readings play the game to its last ply and end it differently; the model agrees."""
    reading = READINGS[found.reading]
    position, counters = Position.from_fen(found.fen), Counters.from_dict(found.counters)
    ours = _replay(Game(position, counters), found.moves)
    theirs = _replay(reading.new_game(position, counters), found.moves)
    assert all(o["result"] == "ongoing" for o in ours[:-1] + theirs[:-1])
    assert ours[-1] != theirs[-1]
    assert (ours[-1], theirs[-1]) == (found.ours, found.theirs)
    moves, before = [], position
    for text in found.moves:
        move = parse_move(before, text)
        moves.append(move)
        before = play(before, move)
    start, events = abstract_game(position, moves, counters)
    assert [o.to_json() for o in outcomes(start, events, PROJECT)] == ours
    assert [o.to_json() for o in outcomes(start, events, reading.model)] == theirs


def _one_square_kings(found: DistinguishingGame) -> None:
    """Every king moves one square or jumps a piece right next to it; the game is the same with
    flying kings switched off."""
    position = Position.from_fen(found.fen)
    counters = Counters.from_dict(found.counters)
    short = Game(position, counters, SHORT_KINGS)
    for text in found.moves:
        move = parse_move(short.position, text, rules=SHORT_KINGS)
        assert move in legal_moves(short.position), f"{text} is not legal with flying kings"
        piece = short.position.piece_at(move.from_square)
        if piece is not None and piece.kind is Kind.KING:
            route = move.route
            steps = [abs(row_of(a) - row_of(b)) for a, b in itertools.pairwise(route)]
            assert steps == [2 if move.captured else 1] * len(steps), text
        short.play(move)
    assert short.outcome().to_json() == found.ours


@pytest.mark.parametrize("name", QUICK)
def test_quick_readings_get_a_confirmed_game(name: str) -> None:
    found = synthesise(name)
    _check(found)
    assert found.plies <= 10


@pytest.mark.slow
@pytest.mark.parametrize("name", list(READINGS))
def test_every_reading_gets_a_confirmed_game(name: str) -> None:
    _check(synthesise(name))


NO_STEPS_GAME = {
    "repetition-ignores-side": "a one-square step moves a piece one row, so the sum of the rows of all "
    "pieces changes parity with every move but a capture (which no position outlives): a placement "
    "recurs only after an even number of plies, with the same side to move",
}
"""Readings no game of one-square king steps can tell apart, and why."""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(READINGS))
def test_every_reading_gets_a_game_with_one_square_king_steps(name: str) -> None:
    if name in NO_STEPS_GAME:
        with pytest.raises(SynthesisError, match="one-square king steps"):
            synthesise(name, steps_only=True)
        return
    found = synthesise(name, steps_only=True)
    _check(found)
    _one_square_kings(found)


def test_one_square_steps_are_kept_on_a_quick_reading() -> None:
    found = synthesise("6.4-four-moves", steps_only=True)
    _check(found)
    _one_square_kings(found)


def test_case_yaml_proposes_a_case_with_the_outcome_to_work_out() -> None:
    found = synthesise("endgame-count-carried")
    text = case_yaml(found)
    case = yaml.safe_load(text)[0]
    assert re.fullmatch(r"[0-9a-z][0-9a-z.-]*[0-9a-z]", case["id"])
    assert case["source"] == (
        "synthesised by `draughts-conformance verify --kind readings endgame-count-carried`, seed 0; "
        "outcome worked by hand"
    )
    assert case["position"] == found.fen
    assert case["interpretation"] == {"reading": "endgame-group-change"}
    # one rule per case: an article the reading reads, which the reading's case relies on
    assert case["article"] in READINGS["endgame-count-carried"].articles
    assert case["requires"] == [case["article"]]
    assert case["expect"]["outcome"]["moves"] == list(found.moves)
    assert case["expect"]["outcome"]["result"] == "TODO"
    assert case.get("counters", {}) == found.counters
