"""The draw-rule campaigns of ``verify`` (``--kind draws``): steered games, their filing, shrinking,
engines with short kings, and the same report whatever the workers."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from conformance.adapters.specs import EngineRecipe
from conformance.mutants import mutant
from conformance.oracle_engine import OracleEngine
from conformance.results import Status
from conformance.tallies import total
from conformance.verify import KINDS
from conformance.verify.draw_campaigns import SCENARIOS, asked_plies, draw_game
from conformance.verify.draw_filing import outcome_rule, refused_move_rule
from conformance.verify.draw_games import CountCarriedIntoNewGroup
from conformance.verify.draw_realise import SHORT_KINGS
from conformance.verify.generate import VerifyOptions, generate
from conformance.verify.run import verify
from oracle.board import row_of
from oracle.game import Game
from oracle.notation import Notation, parse_move
from oracle.position import Position

from .test_workers import same_run

DRAWS_ONLY = VerifyOptions(examples=32, seed=5, kinds=("draws",), shrink=2)
"""Two rounds of the sixteen scenarios."""


def _games(seed: int, rounds: int) -> list[tuple[int, object]]:
    return [(r, draw_game(seed, r, r)) for r in range(rounds)]


def test_draws_is_a_kind_of_the_default_run() -> None:
    assert "draws" in KINDS
    assert VerifyOptions().kinds == KINDS
    assert generate(11, KINDS.index("draws"), KINDS).game is not None
    assert generate(11, 0, KINDS).game is None


@pytest.mark.parametrize("seed", [0, 11])
def test_every_scenario_gives_a_game_from_default_counters_that_ends_on_its_last_ply(seed: int) -> None:
    found = set()
    for _, game in _games(seed, len(SCENARIOS)):
        assert isinstance(game.position, Position)
        found.add(game.scenario)
        for moves, asked in ((game.moves, game.asked), (game.control, game.control_asked)):
            if not moves:
                continue
            replay = Game(game.position)  # default counters: the setup is the first occurrence
            for text in moves[:-1]:
                replay.play(text)
                assert not replay.is_over, (game.scenario, replay.ply)
            replay.play(moves[-1])
            assert replay.is_over, (game.scenario, game.position.fen(), moves)
            assert list(asked) == sorted(set(asked))
            assert asked[-1] == len(moves)
            assert all(1 <= ply <= len(moves) for ply in asked)
    assert found == {scenario.name for scenario in SCENARIOS}


def test_a_game_is_the_same_for_the_same_seed_and_index_and_differs_with_the_seed() -> None:
    draw_game.cache_clear()
    first = draw_game(7, 3, 3)
    draw_game.cache_clear()
    assert draw_game(7, 3, 3) == first
    assert draw_game(8, 3, 3) != first


def test_games_with_steps_only_are_legal_alike_with_short_kings() -> None:
    steps = [game for _, game in _games(3, 48) if game.steps_only]
    assert len(steps) >= 10
    for game in steps:
        for moves in (game.moves, game.control):
            flying, short = Game(game.position), Game(game.position, rules=SHORT_KINGS)
            for text in moves:
                move = parse_move(flying.position, text, Notation.PDN)
                hops = zip(move.route, move.route[1:], strict=False)
                assert all(abs(row_of(a) - row_of(b)) <= 2 for a, b in hops), text
                flying.play(text)
                short.play(text)
            assert short.outcome() == flying.outcome()


def test_asked_plies_surround_each_boundary() -> None:
    assert asked_plies((50, 62), 62) == (48, 49, 50, 51, 60, 61, 62)
    assert asked_plies((2,), 3) == (1, 2, 3)


# -- filing ----------------------------------------------------------------------------------------


def _outcome(result: str, rule: str | None = None, ply: int | None = None) -> dict[str, object]:
    return {"result": result, "rule": rule, "ply": ply}


@pytest.mark.parametrize(
    ("expected", "got", "rule"),
    [
        (_outcome("draw", "6.3", 32), _outcome("ongoing"), "6.3"),  # a missed draw
        (_outcome("ongoing"), _outcome("draw", "6.1", 9), "6.1"),  # a draw where there is none
        (_outcome("white_wins", "7.2.3", 32), _outcome("draw", "6.3", 32), "7.2.3"),  # a win expected
        (_outcome("white_wins", "7.2.2", 15), _outcome("draw", "6.4", 8), "6.4"),  # ended early
        (_outcome("draw", "6.2", 50), _outcome("draw", "6.2", 49), "6.2"),
        (_outcome("draw", "6.1", 10), _outcome("draw", "6.4", 10), "6.1"),
        (_outcome("draw", "6.4", 10), _outcome("black_wins", "7.2.3", 10), "7.2.3"),
    ],
)
def test_a_disagreement_is_filed_under_the_rule_it_concerns(
    expected: dict[str, object], got: dict[str, object], rule: str
) -> None:
    position = Position.from_fen("W:WK1,K2:BK45")
    assert outcome_rule(position, (), expected, got, "6.1", readings=False) == rule


def test_a_refused_move_is_charged_to_its_rule() -> None:
    position = Position.from_fen("W:WK46,31:BK5")
    assert refused_move_rule(position, ("46-28", "5-10"), 1) == "3.9"
    assert refused_move_rule(position, ("31-27", "5-10"), 1) == "3.4"
    assert refused_move_rule(position, ("46-28",), 3) is None


def test_the_reading_explaining_an_answer_is_filed_when_the_control_passed() -> None:
    run = verify(lambda: mutant("draw-beats-win"), DRAWS_ONLY)
    wrong = [r for r in run.results if r.status is not Status.PASS]
    assert wrong
    assert {r.article for r in wrong} == {"win-beats-draw"}
    assert all("7.2.3" in (r.message or "") for r in wrong)


def test_a_count_carried_into_6_4_is_filed_under_its_reading() -> None:
    def carried() -> OracleEngine:
        return OracleEngine(name="carried", game_factory=lambda p, c, r: CountCarriedIntoNewGroup(p, c, r))

    run = verify(carried, DRAWS_ONLY)
    wrong = {r.article for r in run.results if r.status is not Status.PASS}
    assert wrong == {"endgame-group-change"}


# -- engines with short kings ----------------------------------------------------------------------


def test_short_kings_are_judged_on_steps_and_their_refusals_charged_to_the_move() -> None:
    run = verify(lambda: mutant("short-kings"), dataclasses.replace(DRAWS_ONLY, z3=False, all_results=True))
    rows = [r for r in run.results if r.question == "outcome[draws]"]
    passed = [r for r in rows if r.status is Status.PASS]
    failed = [r for r in rows if r.status is Status.FAIL]
    assert passed, "the games of one-square steps were not judged"
    assert failed
    for result in failed:
        assert result.article in {"3.9", "4.3", "4.6"}, (result.article, result.message)
        assert "charged to Art." in (result.message or "")


# -- shrinking and the case -------------------------------------------------------------------------


def test_a_draw_disagreement_is_shrunk_to_the_shortest_disagreeing_prefix() -> None:
    engine = mutant("6.3-fifteen-moves")
    run = verify(lambda: mutant("6.3-fifteen-moves"), DRAWS_ONLY)
    disagreement = next(d for d in run.disagreements if d.check == "outcome[draws]")
    moves = disagreement.judgement.subject
    fen = disagreement.position.fen()

    def differs(prefix: tuple[str, ...]) -> bool:
        game = Game(disagreement.position)
        for text in prefix:
            game.play(text)
        got = engine.outcome(fen, {}, list(prefix))
        return (got.result, got.rule, got.ply) != (
            game.outcome().result.value,
            game.outcome().rule,
            game.outcome().ply,
        )

    assert differs(moves)
    assert not differs(moves[:-1])
    text = disagreement.text()
    assert "after ply" in text
    assert 'article: "6.3"' in disagreement.case_yaml
    assert "result: TODO" in disagreement.case_yaml


def test_a_case_for_a_reading_names_the_reading() -> None:
    run = verify(lambda: mutant("6.3-restarts-on-man-move"), DRAWS_ONLY)
    disagreement = next(d for d in run.disagreements if d.check == "outcome[draws]")
    assert "interpretation: {reading: endgame-no-restart}" in disagreement.case_yaml
    assert 'article: "6.3"' in disagreement.case_yaml


# -- determinism -------------------------------------------------------------------------------------


def test_two_workers_and_shards_give_the_same_draw_results() -> None:
    recipe = EngineRecipe("mutant:6.3-restarts-on-man-move")
    options = dataclasses.replace(DRAWS_ONLY, z3=False)
    one = verify(recipe, options)
    assert one.exit_status == 1
    assert same_run(verify(recipe, options, workers=2)) == same_run(one)
    from conformance.shards import Shard

    runs = [verify(recipe, dataclasses.replace(options, shard=Shard(k, 2))) for k in (1, 2)]
    halves = [run.results for run in runs]
    assert total(line for run in runs for line in run.tallies) == total(one.tallies)  # the counted passes
    merged = sorted(itertools.chain(*halves), key=lambda r: (int(r.case.rsplit("-", 1)[1]), r.question))
    whole = sorted(one.results, key=lambda r: (int(r.case.rsplit("-", 1)[1]), r.question))
    strip = ("duration_ms",)
    assert [{k: v for k, v in r.to_json().items() if k not in strip} for r in merged] == [
        {k: v for k, v in r.to_json().items() if k not in strip} for r in whole
    ]
