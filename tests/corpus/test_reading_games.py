"""Every other reading of Art. 6 is told apart by a corpus case (issue 11, part 3).

:data:`~conformance.verify.draw_readings.READINGS` lists every switch of the rule configuration
that concerns Art. 6, the gallery's draw-rule mutants and the readings of ``cases/articles.yaml``
about Art. 6. For each, a case of the corpus must end differently under the project's reading
(:class:`oracle.game.Game`) and under that one (:meth:`Reading.new_game`), replayed with the
oracle -- so that a new switch added without a case fails here. The case is recorded in
:data:`DISTINGUISHING`: a game synthesised by ``verify --kind readings`` where the corpus lacked
one (``cases/6-draws/6.x-readings-synthesised.yaml``), else the existing case that already is a
distinguishing game. Each is filed under the reading's own rules (one of its articles, or its
reading), so that an engine reading it the other way is charged there, and starts from a fresh
game (no counters), so that engines without the ``counters`` capability are judged too.

The synthesised cases must also be what the command they cite prints: the same position and
moves for the same reading, ``--steps-only`` and seed.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

import pytest

from conformance.core.corpus import Case, OutcomeQuestion, load_corpus
from conformance.verify.draw_readings import READINGS, Reading
from conformance.verify.draw_realise import SHORT_KINGS
from conformance.verify.draw_synthesis import synthesise
from oracle.counters import Counters
from oracle.errors import GameOverError
from oracle.game import Game
from oracle.position import Position

DISTINGUISHING: dict[str, str] = {
    # synthesised with `verify --kind readings --steps-only NAME`, outcome worked by hand
    "6.4-four-moves": "6.4-synth-lone-white-king-8-plies-ongoing",
    "6.4-six-moves": "6.4-synth-king-against-king-black-first-draw-at-10",
    "6.4-missing-king-v-king": "6.4-synth-king-against-king-black-first-draw-at-10",
    "6.4-off-by-1-ply": "6.4-synth-king-against-king-black-first-9-ongoing",
    "6.4-off-by+1-ply": "6.4-synth-black-king-and-man-draw-at-10",
    "no-endgame-counts": "6.4-synth-black-king-and-man-draw-at-10",
    "6.4-restarts-on-change": "6.4-synth-man-move-keeps-count-draw-at-10",
    "endgame-restarts-on-change": "6.4-synth-man-move-keeps-count-draw-at-10",
    "endgame-lone-piece": "6.4-synth-king-and-man-against-lone-man-ongoing",
    "endgame-count-carried": "6.4-synth-6.3-count-not-carried-after-capture",
    "long-diagonal-applied": "6.3-synth-lone-king-reaching-long-diagonal-ongoing",
    "6.3-seventeen-moves": "6.3-synth-two-kings-and-man-draw-at-32",
    "6.3-off-by+1-ply": "6.3-synth-two-kings-and-man-draw-at-32",
    "6.3-fifteen-moves": "6.3-synth-two-kings-and-man-31-ongoing",
    "6.3-off-by-1-ply": "6.3-synth-two-kings-and-man-31-ongoing",
    # existing cases that already are distinguishing games (found by replaying the corpus)
    "repetition-on-second": "6.1-steps-one-ply-before-third-occurrence",
    "repetition-on-fourth": "6.1-steps-third-occurrence-draws",
    "repetition-off": "6.1-steps-third-occurrence-draws",
    "repetition-ignores-side": "6.1-side-to-move-matters",
    "no-draw-rules": "6.1-steps-third-occurrence-draws",
    "no-progress-24-moves": "6.2-steps-forty-nine-king-plies-ongoing",
    "no-progress-26-moves": "6.2-steps-fifty-king-plies-draw",
    "no-progress-off": "6.2-steps-fifty-king-plies-draw",
    "6.2-off-by-1-ply": "6.2-steps-forty-nine-king-plies-ongoing",
    "6.2-off-by+1-ply": "6.2-steps-fifty-king-plies-draw",
    "man-move-keeps-25-move-count": "6.2-steps-man-move-resets",
    "capture-keeps-25-move-count": "6.2-steps-king-capture-resets",
    "highest-article-first": "6.4-steps-repetition-on-the-tenth-ply-names-6.1",
    # each reading of Art. 6 read the other way on one article (the gallery's READING@ARTICLE)
    "endgame-no-restart@6.3": "6.3-steps-man-moves-keep-count",
    "endgame-no-restart@6.4": "6.4-synth-man-move-keeps-count-draw-at-10",
    "endgame-group-change@6.3": "6.3-steps-count-no-longer-applies-after-change",
    "endgame-group-change@6.4": "6.4-synth-6.3-count-not-carried-after-capture",
    "endgame-lone-king-only@6.3": "6.3-steps-no-count-against-a-lone-man",
    "endgame-lone-king-only@6.4": "6.4-synth-king-and-man-against-lone-man-ongoing",
    "long-diagonal-not-applied@6.3": "6.3-synth-lone-king-reaching-long-diagonal-ongoing",
    "win-beats-draw@7.2": "6.2-steps-win-by-blocking-on-the-fiftieth-ply",
    "win-beats-draw@6.2": "6.2-steps-win-by-blocking-on-the-fiftieth-ply",
    "win-beats-draw@6.3": "6.3-capture-of-the-lone-king-on-the-32nd-ply-wins",
    "win-beats-draw@6.4": "6.4-steps-win-on-the-tenth-ply-beats-the-draw",
    "draw-precedence@6.1": "6.4-steps-repetition-on-the-tenth-ply-names-6.1",
    "draw-precedence@6.2": "6.2-steps-repetition-on-the-50th-ply-names-6.1",
    "draw-precedence@6.3": "6.3-steps-repetition-on-the-32nd-ply-names-6.1",
    "draw-precedence@6.4": "6.4-steps-repetition-on-the-tenth-ply-names-6.1",
}
"""Reading of READINGS -> the corpus case that tells it from the project's reading."""

SYNTHESIS = re.compile(
    r"synthesised by `draughts-conformance verify --kind readings(?P<steps> --steps-only)? "
    r"(?P<name>\S+)`, seed (?P<seed>\d+)"
)


@cache
def cases() -> dict[str, Case]:
    return load_corpus().by_id()


def _replay(game: Game, moves: tuple[str, ...]) -> dict[str, object]:
    """The outcome after ``moves``, or where the game ended if it ended before them."""
    for text in moves:
        try:
            game.play(text)
        except GameOverError:
            break
    return {**game.outcome().to_json(), "plies_played": game.ply}


def differing_questions(case: Case, reading: Reading) -> list[int]:
    """The outcome questions of ``case`` on which the project's reading and ``reading`` differ."""
    found = []
    for index, question in enumerate(case.questions):
        if isinstance(question, OutcomeQuestion):
            position, counters = Position.from_fen(case.position), Counters.from_dict(case.counters)
            ours = _replay(Game(position, counters), question.moves)
            theirs = _replay(reading.new_game(position, counters), question.moves)
            if ours != theirs:
                found.append(index)
    return found


def test_every_reading_has_a_recorded_corpus_case() -> None:
    """A switch or reading added to READINGS without a case (or a stale entry) fails here."""
    assert set(READINGS) - set(DISTINGUISHING) == set(), "readings without a distinguishing case"
    assert set(DISTINGUISHING) - set(READINGS) == set(), "recorded readings that no longer exist"


@pytest.mark.parametrize("name", list(READINGS))
def test_the_recorded_case_tells_the_reading_apart(name: str) -> None:
    reading = READINGS[name]
    case = cases()[DISTINGUISHING[name]]
    assert differing_questions(case, reading), f"{case.id} ends alike under the project's reading and {name}"
    rules = {*reading.articles, reading.reading} - {None}
    assert case.judged_under in rules, f"{case.id} is filed under {case.judged_under}, not one of {rules}"
    assert not case.counters, f"{case.id} needs the counters capability"


LOWER_SIDE: Final = {"win-beats-draw": "7.2", "draw-precedence": "6.1"}
"""The article a reading lists that no case can be filed under: the lower side of the meeting it
fixes (a case under 7.2 or 6.1 would rely on the higher draw rule, which the layering forbids).
Broken there, the reading is told apart by the cases of its other articles."""


def test_every_reading_is_told_apart_on_each_article_it_reads() -> None:
    """``READING@ARTICLE`` is told apart by a fresh case filed under the reading and the article."""
    for name, case_id in DISTINGUISHING.items():
        if "@" not in name:
            continue
        reading, article = name.split("@")
        case = cases()[case_id]
        assert case.judged_under == reading, (name, case.id)
        assert case.article == article or LOWER_SIDE.get(reading) == article, (name, case.id, case.article)


def _synthesised() -> list[Case]:
    return [case for case in cases().values() if SYNTHESIS.match(case.source)]


def test_the_synthesised_cases_are_in_the_corpus() -> None:
    assert len(_synthesised()) >= 4
    recorded = {DISTINGUISHING[name] for name in READINGS}
    assert {case.id for case in _synthesised()} <= recorded


QUICK_PLIES = 10
"""Synthesising a game of more plies takes long: its check runs under ``--run-slow``."""


def _plies(case: Case) -> int:
    return max(len(q.moves) for q in case.questions if isinstance(q, OutcomeQuestion))


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, id=case.id, marks=[pytest.mark.slow] if _plies(case) > QUICK_PLIES else [])
        for case in _synthesised()
    ],
)
def test_a_synthesised_case_is_the_game_its_command_prints(case: Case) -> None:
    """Citing ``verify --kind readings NAME, seed S``: that command gives this very game."""
    match = SYNTHESIS.match(case.source)
    assert match is not None
    name, steps, seed = match["name"], match["steps"] is not None, int(match["seed"])
    game = synthesise(name, steps_only=steps, seed=seed)
    (question,) = [q for q in case.questions if isinstance(q, OutcomeQuestion)]
    assert (Position.from_fen(game.fen), game.moves) == (Position.from_fen(case.position), question.moves)
    assert differing_questions(case, READINGS[name]) == [case.questions.index(question)]
    if steps:  # the same game with kings that do not fly: every move legal, the same end
        short = Game(Position.from_fen(case.position), rules=SHORT_KINGS)
        for text in question.moves:
            short.play(text)
        assert short.outcome().to_json() == game.ours
