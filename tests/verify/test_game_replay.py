"""The outcome of a steered draw game after each asked prefix, with the game of the previous prefix
going on (:mod:`conformance.core.game_replay`): the judge's and the built-in oracle engine's answers
are those of a fresh replay from the setup, whatever the order of the questions."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence

import pytest

from conformance.core.game_replay import GameReplay
from conformance.core.protocol import MoveRefused
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify.asking import Asker, NotApplicable
from conformance.verify.draw_campaigns import DrawGame, draw_game
from conformance.verify.generate import VerifyOptions
from conformance.verify.judges import Checks
from oracle.errors import GameOverError, MoveError
from oracle.game import Game
from oracle.outcome import Outcome
from oracle.position import Position

ROUNDS = (0, 12, 21, 31, 39)
"""Templates with controls, repetitions, a capture from 6.3 into 6.4 and a win on a boundary."""


def _games() -> list[DrawGame]:
    return [draw_game(5, round_, round_) for round_ in ROUNDS]


def _fresh(position: Position, moves: Sequence[str]) -> Outcome | str:
    """The oracle's outcome replayed from the setup, or why the moves cannot be played (as the judge says it)."""
    game = Game(position)
    try:
        for text in moves:
            game.play(text)
    except (MoveError, GameOverError) as error:
        return f"the sequence cannot be played from {position.fen()}: {error}"
    return game.outcome()


def _judged(checks: Checks, position: Position, moves: Sequence[str]) -> Outcome | str:
    try:
        return checks.oracle_outcome(position, moves)
    except NotApplicable as error:
        return str(error)


def _with_a_white_man(position: Position) -> Position:
    """Another setup for the same moves: a white man added on the first free square of 46-50."""
    square = next(s for s in range(46, 51) if position.piece_at(s) is None)
    return dataclasses.replace(position, white_men=position.white_men | position.geometry.bit[square])


def _questions() -> list[tuple[Position, tuple[str, ...]]]:
    """Every asked prefix of the games, each also from another setup, and sequences that cannot be
    played: an illegal move after a prefix, a move after the end (each followed by the prefix going on)."""
    asked: list[tuple[Position, tuple[str, ...]]] = []
    for game in _games():
        questions = game.questions()
        other = _with_a_white_man(game.position)
        asked += [(setup, moves) for moves in questions for setup in (game.position, other)]
        asked.append((game.position, (*questions[0], "1-2")))
        asked.append((game.position, (*game.moves, game.moves[0])))
        asked.append((game.position, game.moves[: len(game.moves) // 2]))
    return asked


def test_the_judge_s_outcome_of_every_asked_prefix_is_a_fresh_replay_s_in_any_order() -> None:
    checks = Checks(Asker(OracleEngine(), None), VerifyOptions(kinds=("draws",)))
    questions = _questions()
    orders = [questions, list(reversed(questions)), random.Random(3).sample(questions, len(questions))]
    for order in orders:
        checks.new_position()
        for position, moves in order:
            assert _judged(checks, position, moves) == _fresh(position, moves), (position.fen(), moves)
    assert any(isinstance(_fresh(p, m), str) for p, m in questions)  # the failing sequences are there
    assert any(  # the other setups are other games
        _fresh(position, moves) != _fresh(_with_a_white_man(position), moves)
        for game in _games()
        for position, moves in [(game.position, game.moves)]
    )


def test_a_game_going_on_is_the_game_replayed_counters_and_history_included() -> None:
    replay = GameReplay()
    for game in _games():
        for moves in game.questions():
            setup = (game.position, "international")
            kept = replay.take(setup, moves)
            going_on = Game(game.position) if kept is None else kept
            for text in moves[going_on.ply :]:
                going_on.play(text)
            replay.keep(setup, moves, going_on)
            fresh = Game(game.position)
            for text in moves:
                fresh.play(text)
            assert going_on.snapshot() == fresh.snapshot()
            assert going_on.counters() == fresh.counters()
        assert replay.take((game.position, "another setup"), game.moves) is None
        assert replay.take((game.position, "international"), game.moves) is None  # taken: forgotten


Asked = tuple[str, Mapping[str, int], tuple[str, ...]]


def _engine_questions() -> list[Asked]:
    """The games' questions, two games interleaved, each also from its setup seen a second time
    (another setup, the same FEN), with a move after the end and an illegal move after a prefix."""
    games = _games()
    asked: list[Asked] = []
    for game, counters in (
        (games[0], {"no_progress_plies": 44, "occurrences": 2}),
        (games[-1], {"no_progress_plies": 6, "endgame_plies": 6}),
    ):
        fen = game.position.fen()
        for moves in game.questions():
            asked += [(fen, {}, moves), (fen, counters, moves)]
        asked += [(fen, {}, (*game.moves, "1-2")), (fen, {}, (*game.questions()[0], "1-2"))]
    return asked[::2] + asked[1::2]


def _answer(engine: OracleEngine, question: Asked) -> object:
    fen, counters, moves = question
    try:
        return engine.outcome(fen, counters, list(moves))
    except MoveRefused as refused:
        return ("refused", refused.move, refused.ply, str(refused))


@pytest.mark.parametrize(
    "name",
    [
        "oracle",
        "endgame-group-change@6.3",  # a Game subclass that looks back through the game's positions
        "repetition-ignores-side",
        "6.4-off-by+1-ply",
        "kings-step-one-square",  # a capture mutant: its own moves and their reading, its own game
    ],
)
def test_the_oracle_engine_answers_as_a_fresh_engine_whatever_it_was_asked_before(name: str) -> None:
    factory: Callable[[], OracleEngine] = OracleEngine if name == "oracle" else lambda: mutant(name)
    engine = factory()
    questions = _engine_questions()
    answers = [_answer(engine, question) for question in questions]
    assert answers == [_answer(factory(), question) for question in questions]
    assert any(isinstance(answer, tuple) for answer in answers)  # the refusals are there
    asked = list(zip(questions, answers, strict=True))
    by_setup = {(fen, moves): answer for (fen, counters, moves), answer in asked if not counters}
    assert any(  # the counters change answers: a game from the same FEN with others is another game
        by_setup[fen, moves] != answer for (fen, counters, moves), answer in asked if counters
    )
    shuffled = random.Random(7).sample(questions, len(questions))
    assert [_answer(engine, question) for question in shuffled] == [
        answers[questions.index(question)] for question in shuffled
    ]
